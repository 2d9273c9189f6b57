/**
 * For `npm run bench`: the wall time and CPU time of a full `harness verify` on the reference
 * agency, from a fresh emulator (callbacks registered, the six sandbox scenarios, approval, every
 * production scenario, the reports); and the same beside busy cores, whose verdict must be the
 * quiet run's (issue 25). Emulator and agency run in this process, as in the tests; Chromium runs
 * in its own processes. The browser launch is counted, the emulator's and agency's start is not.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { envValues } from '../emulator/use-cases/control/env-values.js';
import { loadFixture } from '../emulator/fixture.js';
import { createLogger } from '../emulator/logger.js';
import { startServer } from '../emulator/server.js';
import { createAgencyLogger } from '../fixtures/agency-reference/logger.js';
import { startAgency } from '../fixtures/agency-reference/server.js';
import type { Status } from '../harness/checks/types.js';
import { verify } from '../harness/verify.js';
import { type TreeCpu, processTreeMeter } from './cpu.js';
import { DEFAULT_FIXTURE_PATH } from './paths.js';

export interface VerifyMeasurement {
  /** Wall time of verify(), browser launch included. */
  wallMs: number;
  /** CPU time of this process and Chromium's during verify(), and of the whole machine. */
  cpu: TreeCpu;
  summary: Record<Status, number>;
  /** Each check's status: the verdict compared between a quiet and a loaded run. */
  statuses: Record<string, Status>;
  scenarios: number;
  /** The run's own upper bound (`--max-seconds`'s default), which no verify may outlive. */
  boundSeconds: number;
  /** Scenarios that stopped early, with why: a measurement of a broken run is not comparable. */
  stopped: Array<{ id: string; error?: string }>;
}

/** `busyCores`: processes that each keep a core busy throughout the run. */
export async function measureVerify(busyCores = 0): Promise<VerifyMeasurement> {
  const folder = mkdtempSync(join(tmpdir(), 'harness-bench-'));
  const emulator = await startServer({
    fixture: loadFixture(DEFAULT_FIXTURE_PATH), data: ':memory:', host: '127.0.0.1', port: 0, logger: createLogger('emulator', { level: 'silent' }),
  });
  const env = envValues(emulator.world);
  const log = join(folder, 'agency.log');
  writeFileSync(log, '');
  const agency = await startAgency({
    port: 0, emulatorUrl: emulator.baseUrl, keys: { sandbox: env.sandbox_key, production: env.production_key }, logger: createAgencyLogger(pino.destination({ dest: log, sync: true })),
  });
  const config = join(folder, 'harness.config.json');
  writeFileSync(config, JSON.stringify({ entry_endpoint: { path: '/entry' }, agency_log: log }));
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const spinners = Array.from({ length: busyCores }, () => spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' }));
  try {
    const meter = processTreeMeter();
    const started = performance.now();
    const report = await verify({
      callback: agency.callbackUrl, preview: agency.previewUrl, emulator: emulator.baseUrl, config, out: join(folder, 'report'),
      formats: ['json', 'junit', 'html'], stdout: silent, stderr: silent, install: 'attempt',
    });
    const wallMs = performance.now() - started;
    return {
      wallMs, cpu: meter.stop(), summary: report.summary, statuses: Object.fromEntries(report.checks.map((check) => [check.id, check.status])),
      scenarios: report.scenarios.length, boundSeconds: report.run.max_seconds, stopped: report.scenarios.filter((scenario) => scenario.status !== 'passed').map(({ id, error }) => ({ id, error })),
    };
  } finally {
    for (const spinner of spinners) spinner.kill();
    await agency.close();
    await emulator.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
