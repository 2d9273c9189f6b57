/** The package's own files, the same from `harness/` (tests) and `dist/harness/` (the command). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../emulator/cli/paths.js';

export { packageRoot };

export function harnessVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
