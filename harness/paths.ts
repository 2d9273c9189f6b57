/** The package's own files, the same from `harness/` (tests) and `dist/harness/` (the command). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative } from 'node:path';

/** The folder holding package.json: where Node resolves the package's own name (its `exports` name package.json). */
export function packageRoot(): string {
  return dirname(createRequire(import.meta.url).resolve('promo-emulator/package.json'));
}

export function harnessVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** A path as the user should read it: relative when it is inside the working folder, else absolute. */
export function shownPath(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside === '' ? '.' : inside.startsWith('..') || isAbsolute(inside) ? path : inside;
}
