/**
 * A run leaves the brand's console as it found it (issue 49 item 2, issue 48 item 4): the callback
 * URLs exactly as registered, the checklist and the approval, and no line of its own in the approval
 * history; a run killed before its end is undone by the next one, which says so. The harness's
 * emulator client and run/brand-state.ts against an emulator in memory, changed as a run changes it.
 */
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { overview } from '../../emulator/use-cases/console/reads.js';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import { createLogger } from '../../emulator/logger.js';
import { type Running, startServer } from '../../emulator/server.js';
import { EmulatorClient } from '../../harness/emulator-client/client.js';
import { openRun } from '../../harness/run/brand-state.js';
import { coverSandbox, fetchPost } from '../support/sandbox-coverage.js';
import { DEFAULT_FIXTURE } from '../world.js';

const BRAND = { production: 'http://localhost:3000/callback', preview: 'http://localhost:3000/preview' };
const RUN = { production: 'http://127.0.0.1:3000/callback', preview: 'http://127.0.0.1:3000/preview' };
let emulator: Running;
let client: EmulatorClient;

beforeAll(async () => {
  emulator = await startServer({ fixture: DEFAULT_FIXTURE, data: ':memory:', host: '127.0.0.1', port: 0, logger: createLogger('emulator', { level: 'silent' }) });
  client = new EmulatorClient(emulator.baseUrl);
  await client.setCallbacks(BRAND);
  await coverSandbox(fetchPost(emulator.baseUrl, envValues(emulator.world).sandbox_key!));
  expect(await client.approve()).toEqual({ ok: true });
});
afterAll(async () => {
  await emulator.close();
});

/** What the brand sees of the promotion: URLs, approval, checklist, history. */
const brandView = () => {
  const { experience, checklist, history } = overview(emulator.world);
  return { callbacks: experience.callbacks, approved_at: experience.approved_at, checklist, history };
};

/** What a run does to the console: its own URLs (which clear approval and checklist), the sandbox again, its approval, a fault. */
async function changeAsARunDoes(): Promise<void> {
  expect((await client.setCallbacks(RUN)).changed).toBe(true);
  await coverSandbox(fetchPost(emulator.baseUrl, envValues(emulator.world).sandbox_key!));
  expect(await client.approve()).toEqual({ ok: true });
  await client.arm({ path: '/session/entry', status: 503 });
}

const armedFaults = async () => ((await (await fetch(`${emulator.baseUrl}/_emulator/faults`)).json()) as { data: unknown[] }).data;

test('the end of a run puts back the URLs as registered (localhost, not 127.0.0.1), the checklist and the approval, clears its faults, and writes no history line', async () => {
  const before = brandView();
  expect(before.approved_at).not.toBeNull();
  const run = await openRun(client);
  expect(run.recovered).toBeUndefined();
  await changeAsARunDoes();
  expect(brandView().callbacks).toEqual(RUN);

  expect(await run.restore()).toEqual({ restored: true, note: "the emulator's callback URLs, checklist and approval are as the run found them, and the faults it armed are cleared" });
  expect(brandView()).toEqual(before);
  expect(await armedFaults()).toEqual([]);
});

test('a run killed before its end (its process gone) is undone by the next run, which says so; a run whose process lives is refused', async () => {
  const before = brandView();
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  const killed = await client.startRun({ pid: dead, host: hostname() });
  expect(killed).toEqual({ id: expect.any(String), recovered: null });
  await changeAsARunDoes();

  const next = await openRun(client);
  expect(next.recovered).toMatch(new RegExp(`^an earlier run \\(pid ${dead} on ${hostname()}, started \\d{4}-.*\\) ended without restoring the emulator: its callback URLs, checklist and approval are put back as it found them, and its faults cleared$`));
  expect(brandView()).toEqual(before);
  expect(await armedFaults()).toEqual([]);

  // This process holds the promotion now: a run from another living process is refused, nothing changed.
  const other = await client.startRun({ pid: process.ppid, host: hostname() });
  expect(other).toEqual({ active: expect.objectContaining({ pid: process.pid, host: hostname() }) });
  await next.restore();
  expect(brandView()).toEqual(before);
});
