/**
 * The example suite of `promo-emulator/playwright` (examples/playwright), run by Playwright Test
 * from outside as an agency runs it: with an emulator per worker, and attached to a running one.
 * It imports the package by name, so this also proves the `promo-emulator/playwright` export.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import { createLogger } from '../../emulator/logger.js';
import { productionEntryCounts } from '../../emulator/store/entries.js';
import { startServer } from '../../emulator/server.js';
import { createAgencyLogger } from '../../fixtures/agency-reference/logger.js';
import { startAgency } from '../../fixtures/agency-reference/server.js';
import { DEFAULT_FIXTURE } from '../world.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SPEC = join(ROOT, 'examples', 'playwright', 'agency.spec.ts');
const folders: string[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

interface Stats {
  expected: number;
  unexpected: number;
  flaky: number;
  skipped: number;
}

/** `npx playwright test -c <config>` with a JSON report; its stats, and the output in case it failed. */
async function playwright(config: string, env: Record<string, string> = {}): Promise<{ code: number | null; stats: Stats; output: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'promo-playwright-'));
  folders.push(folder);
  const report = join(folder, 'report.json');
  const child = spawn('npx', ['playwright', 'test', '-c', config, '--reporter=json', '--output', join(folder, 'results')], {
    cwd: ROOT, env: { ...process.env, ...env, PLAYWRIGHT_JSON_OUTPUT_FILE: report, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const code = await new Promise<number | null>((done) => child.on('exit', done));
  const stats = (JSON.parse(readFileSync(report, 'utf8')) as { stats: Stats }).stats;
  return { code, stats, output };
}

/** The tests the example file declares, counted from its text. */
const declared = (pattern?: RegExp) => [...readFileSync(SPEC, 'utf8').matchAll(/^test\('([^']+)'/gm)].filter((match) => !pattern?.test(match[1]!)).length;

test('the example suite passes against the reference agency, with an emulator and an agency per worker', async () => {
  const run = await playwright('examples/playwright');
  expect(declared()).toBeGreaterThanOrEqual(6);
  expect({ code: run.code, ...run.stats }, run.output).toMatchObject({ code: 0, expected: declared(), unexpected: 0, flaky: 0, skipped: 0 });
}, 180_000);

test('attached to one running emulator and agency, two workers share out the packs and the suite passes', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'promo-attached-'));
  folders.push(folder);
  const emulator = await startServer({ fixture: DEFAULT_FIXTURE, data: folder, host: '127.0.0.1', port: 0, logger: createLogger('emulator', { level: 'silent' }) });
  closers.push(() => emulator.close());
  const env = envValues(emulator.world);
  const agency = await startAgency({ port: 0, emulatorUrl: emulator.baseUrl, keys: { sandbox: env.sandbox_key, production: env.production_key }, logger: createAgencyLogger(undefined, 'silent') });
  closers.push(() => agency.close());

  const run = await playwright('test/playwright/attach.config.ts', { TEST_EMULATOR_URL: emulator.baseUrl, TEST_AGENCY_CALLBACK: agency.callbackUrl, TEST_AGENCY_PREVIEW: agency.previewUrl });
  expect({ code: run.code, ...run.stats }, run.output).toMatchObject({ code: 0, expected: declared(/expired session/), unexpected: 0, flaky: 0, skipped: 0 });
  const entries = productionEntryCounts(emulator.world.db);
  // The won, lost and pending tests entered: each with a pack of its own.
  expect(entries.entries).toBeGreaterThanOrEqual(3);
  expect(entries.packs).toBe(entries.entries);
}, 180_000);
