/** The package's own files, the same from `harness/` (tests) and `dist/harness/` (the command). */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { packageRoot } from '../emulator/cli/paths.js';

export { packageRoot };

export function harnessVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** A path as the user should read it: relative when it is inside the working folder, else absolute. */
export function shownPath(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside === '' ? '.' : inside.startsWith('..') || isAbsolute(inside) ? path : inside;
}
