// A lint setting that names a file or a folder checks nothing once that file is renamed, and says
// nothing about it. So each list of names a setting holds goes through `existing` as the lint's
// config loads: a name that matches no path stops `npm run lint` with the names to fix.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The part of a name before its first wildcard: the file, or the folder a glob looks in. */
function fixedPart(name) {
  const wildcard = name.search(/[*?[{]/);
  return wildcard === -1 ? name : name.slice(0, wildcard);
}

/** `names` (paths or globs from `root`), once each is known to match a path there; throws naming those that do not. */
export function existing(names, root = ROOT) {
  const missing = names.filter((name) => !existsSync(resolve(root, fixedPart(name))));
  if (missing.length > 0) throw new Error(`The lint names ${missing.join(', ')}, which no longer exist${missing.length === 1 ? 's' : ''}: name the file as it is now called.`);
  return names;
}
