/**
 * The Python agency (fixtures/agency-python), started as its README says, verified by the built
 * harness told only its callback, its preview and its log: a correct build, so exit 0, and it is
 * the agency that sends an unticked consent form to the service and asks again after the 422.
 * Run `npm run build` first.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import { createLogger } from '../../emulator/logger.js';
import { type Running, startServer } from '../../emulator/server.js';
import { harness } from '../harness/cli-support.js';
import { DEFAULT_FIXTURE } from '../world.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PYTHON = '/usr/bin/python3';
const STARTUP_MS = 20_000;

let emulator: Running;
let agency: ChildProcess | undefined;
let callback: string;
const folder = mkdtempSync(join(tmpdir(), 'agency-python-'));
const agencyLog = join(folder, 'agency.log');

beforeAll(async () => {
  // Flask comes from Debian's python3-flask (.ci/run installs it): without it this test must fail, not skip.
  const flask = spawnSync(PYTHON, ['-c', 'import flask'], { encoding: 'utf8' });
  if (flask.status !== 0) throw new Error(`${PYTHON} cannot import flask: install python3-flask (apt-get install python3-flask), as .ci/run does\n${flask.stderr ?? flask.error}`);
  emulator = await startServer({ fixture: DEFAULT_FIXTURE, data: ':memory:', host: '127.0.0.1', port: 0, logger: createLogger('emulator', { level: 'silent' }) });
  const env = envValues(emulator.world);
  agency = spawn(PYTHON, [join(ROOT, 'fixtures/agency-python/app.py'), '--port', '0', '--log', agencyLog], {
    env: { ...process.env, PROMO_BASE_URL: emulator.baseUrl, PROMO_SANDBOX_KEY: env.sandbox_key!, PROMO_PRODUCTION_KEY: env.production_key! },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  callback = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the Python agency did not say it was listening within ${STARTUP_MS} ms: ${output}`)), STARTUP_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /^\s+callback URL\s+(\S+)$/m.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    agency!.stdout!.on('data', read);
    agency!.stderr!.on('data', read);
    agency!.once('exit', (code) => reject(new Error(`the Python agency exited (${code}): ${output}`)));
  });
}, 60_000);

afterAll(async () => {
  agency?.kill('SIGTERM');
  await emulator?.close();
  rmSync(folder, { recursive: true, force: true });
});

test('harness verify with only callback, preview and agency_log approves it, consent.refresh_after_422 included', async () => {
  const config = join(folder, 'harness.config.json');
  writeFileSync(config, JSON.stringify({ agency_log: agencyLog }));
  const out = join(folder, 'report');
  const preview = callback.replace(/\/callback$/, '/preview');
  const run = await harness(['verify', '--callback', callback, '--preview', preview, '--emulator', emulator.baseUrl, '--config', config, '--out', out, '--format', 'json']);
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { checks: Array<{ id: string; status: string }> };
  expect(report.checks.find((check) => check.id === 'consent.refresh_after_422')?.status).toBe('pass');
  // The log the harness searched holds the run's requests, their query values redacted.
  expect(readFileSync(agencyLog, 'utf8')).toMatch(/"url": "\/callback\?service_code=\[redacted\]&state=\[redacted\]"/);
}, 300_000);
