// `npm run build`, after tsc: the emulator CLI as one small entry plus chunks loaded on demand, written
// over tsc's dist/emulator/cli.js. Resolving and reading express's and zod's few hundred files took a
// third of start-up. The rest of dist/ stays tsc's output, which the tests and the harness import.
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(root, 'dist', 'emulator');
const chunks = join(outdir, 'cli-chunks');

/**
 * Required from node_modules at run time instead of bundled: a native addon, what only a terminal
 * loads, iconv-lite (its encoding tables, half a megabyte, load on a body's first non-UTF-8
 * charset) and mime-db (as JSON it parses faster and takes less memory than as a script).
 */
const FROM_NODE_MODULES = ['better-sqlite3', 'pino-pretty', 'iconv-lite', 'mime-db'];

rmSync(chunks, { recursive: true, force: true });
await build({
  entryPoints: [join(root, 'emulator', 'cli.ts')],
  outdir,
  // Modules the CLI imports on demand (each command, each lazy router) stay in chunks of their own.
  splitting: true,
  chunkNames: 'cli-chunks/[name]-[hash]',
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  minify: true,
  keepNames: true,
  plugins: [fromNodeModules(FROM_NODE_MODULES), zodEnglishOnly()],
  logLevel: 'warning',
});

/** Leaves `names` external, once sure the chunks will require the very copy their importer would. */
function fromNodeModules(names) {
  const atRunTime = createRequire(join(chunks, 'chunk.js'));
  return {
    name: 'from-node-modules',
    setup(builder) {
      const filter = new RegExp(`^(${names.map((name) => name.replace(/[.-]/g, '\\$&')).join('|')})$`);
      builder.onResolve({ filter }, ({ path, importer }) => {
        const wanted = createRequire(importer).resolve(path);
        if (atRunTime.resolve(path) !== wanted) {
          return { errors: [{ text: `${path} from dist/emulator would not be the copy ${importer} uses (${wanted}); bundle it or hoist it` }] };
        }
        return { external: true };
      });
    },
  };
}

/** zod's `locales` namespace holds every language's messages; the emulator speaks English only. */
function zodEnglishOnly() {
  return {
    name: 'zod-english-only',
    setup(builder) {
      builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer }) =>
        /[\\/]node_modules[\\/]zod[\\/]/.test(importer) ? { path: 'zod-locales', namespace: 'zod-english-only' } : undefined,
      );
      builder.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({ contents: "export { default as en } from 'zod/v4/locales/en.js';", resolveDir: root }));
    },
  };
}
