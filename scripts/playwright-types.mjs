// `npm run build`, after tsc: the declarations a user of `promo-emulator/playwright` needs, and only those,
// copied to dist/playwright/types/ (the package ships them; tsc's other declarations stay out of it).
// They are the fixtures' index.d.ts and every declaration it reaches through relative imports, each at
// its path under dist/, so the imports between them hold as tsc wrote them.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const out = join(dist, 'playwright', 'types');
const ENTRY = 'playwright/index.d.ts';

rmSync(out, { recursive: true, force: true });
const reached = new Set();
const pending = [ENTRY];
while (pending.length > 0) {
  const file = pending.pop();
  if (reached.has(file)) continue;
  reached.add(file);
  const text = readFileSync(join(dist, file), 'utf8');
  for (const [, specifier] of text.matchAll(/(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = normalize(join(dirname(file), specifier.replace(/\.js$/, '.d.ts')));
    if (!existsSync(join(dist, target))) throw new Error(`${file} imports ${specifier}, which has no declaration in dist/`);
    if (relative(dist, join(dist, target)).startsWith('..')) throw new Error(`${file} imports ${specifier}, outside dist/`);
    pending.push(target);
  }
}
for (const file of reached) {
  mkdirSync(dirname(join(out, file)), { recursive: true });
  copyFileSync(join(dist, file), join(out, file));
}
