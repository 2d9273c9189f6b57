/**
 * The package as `npm pack` makes it (issue 26 items 1 and 9): it ships what a user runs and nothing
 * else, and the README's Playwright steps, run as written in a fresh CommonJS project (what `npm init -y`
 * makes) and a fresh ES module project, install it and pass the README's example test against the
 * reference agency; in the CommonJS project, the README's CI section then runs as written, with the
 * package's `promo-agency` bin as the agency, and `harness verify` exits 0. The installs enforce `allowScripts` (`--strict-allow-scripts`): an install script
 * the README's `allowScripts` line does not cover fails them, as npm 12 will skip it.
 *
 * The checkout is packed with `--ignore-scripts`: `prepack` would rebuild dist/ under the other test
 * files, and the suite's `pretest` built it. npm needs its registry for the dependencies (its cache is
 * shared). better-sqlite3's install script (prebuild-install) looks for a prebuilt binary before it
 * compiles; where none can be downloaded (this machine reaches GitHub's releases no more than a CI
 * runner behind a mirror does) it is offered the checkout's own build as a local prebuild, as a
 * mirror would, instead of compiling the same binary twice more: the install script still runs,
 * under `--strict-allow-scripts`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createAgencyLogger } from '../../fixtures/agency-reference/logger.js';
import { type RunningAgency, startAgency } from '../../fixtures/agency-reference/server.js';
import { type Block, codeBlocks, SHELL } from '../support/markdown.js';
import { testWorld } from '../world.js';
import { freePort, removeTempFolders, ROOT, run, stopEmulatorOf, tempFolder } from './support.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const SECTION = README.slice(README.indexOf('### Test your site with Playwright Test'), README.indexOf('`journey.settleDelivery()`'));
/** The section's shell blocks this test runs (the others pack the checkout, which beforeAll does). */
const STEPS = codeBlocks('README.md', SECTION, SHELL).filter((block) => block.skipped?.includes('playwright-project.test.ts runs it'));
/** Its TypeScript blocks that name their file on their first line. */
const FILES = codeBlocks('README.md', SECTION, ['ts']).flatMap((block: Block) => {
  const name = /^\/\/ (\S+\.ts)$/.exec(block.text.split('\n')[0]!)?.[1];
  return name ? [{ name, text: block.text }] : [];
});
/** The README's CI section, run in the CommonJS project once its Playwright steps have installed the package. */
const CI_BLOCK = codeBlocks('README.md', README.slice(README.indexOf('## For agencies and CI'), README.indexOf('## Security')), SHELL).find((block) => block.skipped?.includes('test/packaging/playwright-project.test.ts'))!;
const TARBALL = /~\/(promo-emulator-[\d.]+\.tgz)/.exec(SECTION)?.[1];

let home: string;
let tarball: string;
/** A folder holding the checkout's better-sqlite3 binary under the name prebuild-install looks for. */
let prebuilds: string;
const stops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  home = tempFolder('promo-pack-home-');
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', home], { cwd: ROOT });
  expect(packed.code, packed.stderr).toBe(0);
  tarball = join(home, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);
  prebuilds = tempFolder('promo-prebuilds-');
  const sqlite = join(ROOT, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(sqlite, 'package.json'), 'utf8')) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', join(prebuilds, name), '-C', sqlite, 'build/Release/better_sqlite3.node']);
}, 120_000);

afterAll(async () => {
  for (const stop of stops.splice(0)) await stop();
  removeTempFolders();
});

test('the package holds the programs, the reference agency\'s, their runtime files, the Playwright fixtures in both module systems with their declarations alone, LICENSE, and none of the checkout\'s tests, benchmarks or sources', () => {
  const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').map((name) => name.replace(/^package\//, ''));
  for (const needed of ['package.json', 'README.md', 'LICENSE', 'dist/emulator/cli.js', 'dist/emulator/cli-program.js', 'dist/harness/cli.js', 'dist/fixtures/agency-reference/cli.js', 'dist/playwright/index.js', 'dist/playwright/index.cjs', 'fixtures/default.json', 'scenarios/production-won.json', 'docs/rules.md', 'fixtures/agency-reference/server.ts']) {
    expect(files, needed).toContain(needed);
  }
  const stray = files.filter((name) => /^(test|bench|scripts|emulator|harness\/(?!README\.md$)|playwright|dist\/bench|dist\/fixtures\/agency-spa)\b|\.test\.ts$|^(Dockerfile|compose\.yaml|tsconfig)/.test(name));
  expect(stray).toEqual([]);
  // The declarations: the fixtures' entry, as package.json's "types" names it, and what it imports, nothing else.
  const { exports } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { types: string }> };
  const declarations = files.filter((name) => name.endsWith('.d.ts'));
  expect(declarations).toContain(exports['./playwright']!.types.replace(/^\.\//, ''));
  expect(declarations.every((name) => name.startsWith('dist/playwright/types/')), declarations.join('\n')).toBe(true);
  for (const name of declarations) {
    const text = execFileSync('tar', ['-xzOf', tarball, `package/${name}`], { encoding: 'utf8' });
    for (const [, specifier] of text.matchAll(/(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      expect(declarations, `${name} imports ${specifier}`).toContain(join(dirname(name), specifier!.replace(/\.js$/, '.d.ts')));
    }
  }
  expect(`promo-emulator-${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}.tgz`).toBe(TARBALL);
});

test("the checkout's own install scripts are all reviewed in allowScripts", async () => {
  const pending = await run('npm', ['approve-scripts', '--allow-scripts-pending'], { cwd: ROOT });
  expect(pending.code, pending.stderr).toBe(0);
  expect(pending.stdout + pending.stderr).toMatch(/No packages with unreviewed install scripts/);
});

for (const type of ['commonjs', 'module'] as const) {
  test.concurrent(`in a fresh ${type} project, the README's Playwright steps install the package and its example test passes`, async () => {
    expect(STEPS.length).toBeGreaterThanOrEqual(2);
    expect(FILES.map((file) => file.name)).toEqual(['playwright.config.ts', 'tests/prize.spec.ts']);
    const project = tempFolder(`promo-${type}-project-`);
    const data = tempFolder('promo-project-data-');
    const init = await run('npm', ['init', '-y'], { cwd: project });
    expect(init.code, init.stderr).toBe(0);
    const types = await run('npm', ['pkg', 'set', `type=${type}`], { cwd: project });
    expect(types.code, types.stderr).toBe(0);
    for (const file of FILES) {
      mkdirSync(dirname(join(project, file.name)), { recursive: true });
      writeFileSync(join(project, file.name), file.text);
    }

    // "Your site": the reference agency, with the keys the emulator the steps start will have.
    const port = await freePort();
    const { env } = testWorld();
    const agency: RunningAgency = await startAgency({ port: 0, emulatorUrl: `http://127.0.0.1:${port}`, keys: { sandbox: env.sandbox_key, production: env.production_key }, logger: createAgencyLogger(undefined, 'silent') });
    stops.push(() => agency.close());
    stops.push(async () => stopEmulatorOf(data));

    const script = `set -euo pipefail\n${STEPS.map((block) => block.text).join('\n')}\n`;
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PROMO_|EMULATOR_|HARNESS_CONTROL|npm_)/.test(name)));
    const result = await run('bash', ['-c', script], {
      cwd: project,
      env: {
        // HOME holds the tarball (the README's `~`); npm keeps this machine's settings and cache.
        ...inherited, HOME: home, npm_config_userconfig: join(homedir(), '.npmrc'), npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'), npm_config_strict_allow_scripts: 'true',
        npm_config_better_sqlite3_local_prebuilds: prebuilds,
        EMULATOR_PORT: String(port), EMULATOR_DATA: data, CALLBACK_URL: agency.callbackUrl, PREVIEW_URL: agency.previewUrl, CI: '1', NO_COLOR: '1',
      },
    });
    expect(result.code, `${result.stdout}\n${result.stderr}`.slice(-6000)).toBe(0);
    expect(result.stdout).toMatch(/\b1 passed\b/);
    if (type !== 'commonjs') return;

    // The same install, in CI: the README's CI section as written, its agency the package's own `promo-agency` (issue 40 item 3).
    const ciData = tempFolder('promo-project-ci-data-');
    stops.push(async () => stopEmulatorOf(ciData));
    const agencyPort = await freePort();
    const ci = await run('bash', ['-e', '-c', CI_BLOCK.text], {
      cwd: project,
      env: { ...inherited, HOME: home, npm_config_userconfig: join(homedir(), '.npmrc'), npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'), PORT: String(agencyPort), EMULATOR_PORT: String(await freePort()), EMULATOR_DATA: ciData, CI: '1', NO_COLOR: '1' },
    });
    expect(ci.code, `${ci.stdout}\n${ci.stderr}`.slice(-6000)).toBe(0);
    expect(ci.stdout).toMatch(/exit 0: every check passed/);
    expect(existsSync(join(project, 'harness-report', 'junit.xml'))).toBe(true);
    expect(readFileSync(join(project, 'agency.log'), 'utf8')).toMatch(/"msg":"request"/);
    // Both stopped: the agency's port refuses once the signal has ended it, the emulator's folder has no instance.
    expect(await refusedWithin(`http://127.0.0.1:${agencyPort}/callback`, 10_000)).toBe(true);
    expect(existsSync(join(ciData, 'instance.json'))).toBe(false);
  }, 1_500_000);
}

async function refusedWithin(url: string, ms: number): Promise<boolean> {
  for (const deadline = performance.now() + ms; performance.now() < deadline; await sleep(100)) {
    if (await fetch(url).then(() => false, () => true)) return true;
  }
  return false;
}
