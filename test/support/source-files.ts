/** The repository's source files (TypeScript and JavaScript), for the lints that read them all. */
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const SKIPPED = new Set(['node_modules', 'dist', '.git']);
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** Every source file under `root`, as a path from it with `/`, whatever the platform. */
export function sourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (SKIPPED.has(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE.test(entry.name)) files.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(root);
  return files.sort();
}
