// `npm run build`, last: the files package.json names as bins are made executable. npm does this when
// it installs the package, but not for a clone's own bins, which tsc writes after `npm ci` without the
// mode: `npx harness` in a fresh clone answered "Permission denied".
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { bin } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
for (const file of new Set(Object.values(bin))) chmodSync(join(root, file), 0o755);
