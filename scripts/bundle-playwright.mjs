// `npm run build`, after tsc: `promo-emulator/playwright` as one CommonJS file, dist/playwright/index.cjs,
// for projects whose tests Playwright loads as CommonJS (npm init's "type": "commonjs", the default).
// tsc's ES modules stay what an ES module project imports; package.json's "exports" picks one by condition.
// A CommonJS project's require() of the ES module build works only from Node 20.19 and 22.12, and not at all
// when the package is linked from a checkout: Playwright then compiles the linked files as CommonJS.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

await build({
  entryPoints: [join(root, 'playwright', 'index.ts')],
  outfile: join(root, 'dist', 'playwright', 'index.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // Dependencies, @playwright/test first of all, are required from node_modules: one copy each, the project's.
  packages: 'external',
  // The modules that read import.meta.url only look for files of the package (package.json, dependencies)
  // upwards or through require.resolve, which works the same from dist/playwright/.
  define: { 'import.meta.url': '__importMetaUrl' },
  banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
