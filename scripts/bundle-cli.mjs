// `npm run build`, after tsc: the emulator CLI as a handful of files written over tsc's dist/emulator/cli.js
// (decisions/006). Resolving, reading and compiling express's and zod's few hundred files took a third
// of start-up, and one file per module costs time of its own. The rest of dist/ stays tsc's output,
// which the tests and the harness import.
//   cli.js                  the entry: the heap flag (cli/heap.ts), then the program, parsed only after it
//   cli-program.js          emulator/ as one ES module; a module it imports on demand runs on first import
//   cli-vendor/<name>.cjs   each CommonJS package of VENDORED, required when the first module importing it runs
//   cli-vendor/<name>.js    each ES module package of VENDORED, imported by the program's first line
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(root, 'dist', 'emulator');
const vendorDir = join(outdir, 'cli-vendor');

/**
 * Required from node_modules at run time instead of bundled: a native addon, what only a terminal
 * loads, iconv-lite (its encoding tables, half a megabyte, load on a body's first non-UTF-8
 * charset) and mime-db (as JSON it parses faster and takes less memory than as a script).
 */
const FROM_NODE_MODULES = ['better-sqlite3', 'pino-pretty', 'iconv-lite', 'mime-db'];
/**
 * Bundled apart from the program, one file each. V8's parser takes memory in proportion to the file
 * it parses, and much of it stays resident: all in one 800 KB file, the idle emulator held 3 MB
 * more. Apart, chokidar and qrcode-generator are not even parsed until a watch or a QR code needs them.
 */
const VENDORED = ['zod', 'express', 'pino', 'commander', 'chokidar', 'qrcode-generator'];
/** The packages of VENDORED that are ES modules (`"type": "module"`); the others are CommonJS. */
const MODULES = new Set(VENDORED.filter((name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).type === 'module'));

const common = { bundle: true, platform: 'node', target: 'node20', minify: true, keepNames: true, allowOverwrite: true, logLevel: 'warning' };
// CommonJS dependencies call require(); an ES module has none of its own.
const withRequire = { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" };

// cli-chunks/ held the code-split layout of earlier builds.
rmSync(join(outdir, 'cli-chunks'), { recursive: true, force: true });
rmSync(vendorDir, { recursive: true, force: true });
await Promise.all([
  ...VENDORED.map((name) =>
    build({
      ...common,
      format: MODULES.has(name) ? 'esm' : 'cjs',
      stdin: { contents: vendorEntry(name), resolveDir: root, sourcefile: `${name}.js` },
      outfile: join(vendorDir, vendorFile(name)),
      plugins: [fromNodeModules(FROM_NODE_MODULES, vendorDir), zodEnglishOnly()],
    }),
  ),
  build({ ...common, format: 'esm', entryPoints: [join(root, 'emulator', 'cli.ts')], outfile: join(outdir, 'cli.js'), plugins: [programApart()] }),
  build({
    ...common,
    format: 'esm',
    banner: withRequire,
    entryPoints: [join(root, 'emulator', 'cli', 'program.ts')],
    outfile: join(outdir, 'cli-program.js'),
    external: ['./cli-vendor/*'],
    plugins: [fromNodeModules(FROM_NODE_MODULES, outdir), vendored(VENDORED)],
  }),
]);

/** The entry imports the program as a file of its own, so the heap flag is set before V8 parses it. */
function programApart() {
  return {
    name: 'program-apart',
    setup(builder) {
      builder.onResolve({ filter: /^\.\/cli\/program\.js$/ }, () => ({ path: './cli-program.js', external: true }));
    },
  };
}

/** A package's whole export as one module of its own kind: an ES module package keeps its named and default exports. */
function vendorEntry(name) {
  return MODULES.has(name) ? `export * from '${name}'; export { default } from '${name}';` : `module.exports = require('${name}');`;
}

function vendorFile(name) {
  return MODULES.has(name) ? `${name}.js` : `${name}.cjs`;
}

/**
 * The program's imports of `names` become imports of their vendor files. A CommonJS package is
 * required where its first importer runs, and esbuild's interop reads it. An ES module package is
 * imported as one, at the program's start: the interop would give each importing module its own copy
 * of the namespace, a getter per export (zod: 260 exports, 22 importers, a megabyte of idle heap).
 */
function vendored(names) {
  const filter = exactly(names);
  return {
    name: 'vendored',
    setup(builder) {
      builder.onResolve({ filter }, ({ path }) => (MODULES.has(path) ? { path: `./cli-vendor/${vendorFile(path)}`, external: true } : { path, namespace: 'vendored' }));
      builder.onLoad({ filter: /.*/, namespace: 'vendored' }, ({ path }) => ({ contents: `module.exports = require('./cli-vendor/${vendorFile(path)}');` }));
    },
  };
}

/** Leaves `names` external, once sure the files written to `dir` will require the very copy their importer would. */
function fromNodeModules(names, dir) {
  const atRunTime = createRequire(join(dir, 'file.js'));
  return {
    name: 'from-node-modules',
    setup(builder) {
      builder.onResolve({ filter: exactly(names) }, ({ path, importer }) => {
        const wanted = createRequire(importer).resolve(path);
        if (atRunTime.resolve(path) !== wanted) {
          return { errors: [{ text: `${path} from ${dir} would not be the copy ${importer} uses (${wanted}); bundle it or hoist it` }] };
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

/** An esbuild filter matching exactly the package names `names`. */
function exactly(names) {
  return new RegExp(`^(${names.map((name) => name.replace(/[.-]/g, '\\$&')).join('|')})$`);
}
