// `npm run build:sea [-- --out FILE]`: the `emulator` command as one program that runs without Node
// or node_modules (a Node single executable application), at dist/sea/emulator by default. esbuild
// bundles emulator/cli.ts into one CommonJS script; the files it reads at runtime travel as assets
// (emulator/sea.ts reads them). The program is this Node binary with the bundle injected, so it runs
// on the platform and architecture it was built on. Steps: nodejs.org/api/single-executable-applications.html
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { out: { type: 'string', default: join(root, 'dist', 'sea', 'emulator') } } });
const out = resolve(values.out);
const macOS = process.platform === 'darwin';
const require = createRequire(import.meta.url);

if (!['linux', 'darwin'].includes(process.platform) || !isBuiltin('node:sea')) {
  console.error(`[build:sea] a single executable with assets needs Node 20.12 or later on Linux or macOS; this is Node ${process.version} on ${process.platform}`);
  process.exit(1);
}

const started = performance.now();
const work = mkdtempSync(join(tmpdir(), 'promo-sea-'));
try {
  const main = join(work, 'emulator.cjs');
  await build({
    entryPoints: [join(root, 'emulator', 'cli.ts')],
    outfile: main,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    plugins: [bindingsFromAssets()],
    // The code that reads import.meta runs only outside the executable (`inSea` in emulator/sea.ts).
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'warning',
  });

  const config = join(work, 'sea-config.json');
  const blob = join(work, 'sea.blob');
  writeFileSync(config, JSON.stringify({
    main,
    output: blob,
    disableExperimentalSEAWarning: true,
    assets: {
      'package.json': join(root, 'package.json'),
      'default.json': join(root, 'fixtures', 'default.json'),
      'better_sqlite3.node': join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node'),
      // Swagger UI for the API reference pages (emulator/openapi/reference.ts).
      ...Object.fromEntries(['swagger-ui-bundle.js', 'swagger-ui.css'].map((name) => [name, join(dirname(require.resolve('swagger-ui-dist/package.json')), name)])),
    },
  }));
  node('--experimental-sea-config', config);

  // Built beside the target and renamed into place, so `out` is never a half-made program.
  const partial = `${out}.partial`;
  mkdirSync(dirname(out), { recursive: true });
  copyFileSync(process.execPath, partial);
  chmodSync(partial, 0o755);
  if (macOS) execFileSync('codesign', ['--remove-signature', partial]);
  node(require.resolve('postject/dist/cli.js'), partial, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2', ...(macOS ? ['--macho-segment-name', 'NODE_SEA'] : []));
  if (macOS) execFileSync('codesign', ['--sign', '-', partial]);
  renameSync(partial, out);
  const shown = out.startsWith(process.cwd() + sep) ? relative(process.cwd(), out) : out;
  console.log(`[build:sea] ${shown}: ${(statSync(out).size / 1e6).toFixed(0)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(error instanceof BuildError ? error.message : error);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}

class BuildError extends Error {}

/** Runs a Node step, showing its output only when it fails: postject warns about ELF notes it reads fine. */
function node(...args) {
  try {
    execFileSync(process.execPath, args, { stdio: 'pipe' });
  } catch (error) {
    process.stderr.write(`${error.stdout}${error.stderr}`);
    throw new BuildError(`[build:sea] \`node ${args.join(' ')}\` failed`);
  }
}

/**
 * better-sqlite3 finds its native binding through the `bindings` package, which searches the file
 * system. In the bundle, that call goes to emulator/sea.ts, which loads the binding from an asset.
 */
function bindingsFromAssets() {
  return {
    name: 'bindings-from-assets',
    setup(bundler) {
      bundler.onResolve({ filter: /^bindings$/ }, () => ({ path: 'bindings', namespace: 'sea-assets' }));
      bundler.onLoad({ filter: /.*/, namespace: 'sea-assets' }, () => ({
        contents: `module.exports = require(${JSON.stringify(join(root, 'emulator', 'sea.ts'))}).nativeAddon;`,
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}
