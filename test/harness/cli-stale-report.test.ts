/**
 * The stale report (issue 42 item 5, issue 49 item 3): after a run that approved, a run that could
 * not run (exit 2) or was interrupted (Ctrl-C, SIGTERM, directly or through npx) leaves no report
 * behind saying "Approve", says that it removed it, and an interrupted run says so without a
 * scenario line that reads like a failure of the agency. The built CLI, spawned; the "emulator" a
 * server that never answers, so the signal lands mid-preflight without a browser.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { REPORT_MARK } from '../../harness/report/folder.js';
import { type Run, harness } from './cli-support.js';

let folder: string;
let out: string;
let silent: Server;
let asked: () => void;
let emulator: string;

beforeAll(async () => {
  silent = createServer(() => asked());
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  emulator = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'stale-report-'));
  out = join(folder, 'harness-report');
  mkdirSync(join(out, 'evidence'), { recursive: true });
  writeFileSync(join(out, 'report.html'), '<header id="verdict" class="banner approve"><h1>Approve</h1></header>');
  writeFileSync(join(out, REPORT_MARK), '{"written_by":"harness","published_at":0}\n');
});

test('a run that could not run (exit 2) leaves no earlier report behind', async () => {
  const run = await harness(['verify', '--callback', 'http://127.0.0.1:9/callback', '--emulator', 'http://127.0.0.1:9', '--out', out]);
  expect(run.code).toBe(2);
  expect(run.stderr).toBe(`[harness] the earlier report in ${out}/ was removed: this run has no verdict\n[harness] the emulator at http://127.0.0.1:9 is not reachable (bad port): start it with \`npx emulator start\` or pass --emulator URL\n`);
  expect(readdirSync(folder)).toEqual([]);
});

/** A run interrupted once it is under way (the emulator has been asked), by `signal` sent to the process started: the harness, or npx. */
function interrupted(signal: NodeJS.Signals, via: 'node' | 'npx') {
  return harness(['verify', '--callback', 'http://127.0.0.1:9/callback', '--emulator', emulator, '--out', out], { onStart: (child) => (asked = () => child.kill(signal)), via });
}

const INTERRUPTED = (signal: string) => `[harness] interrupted (${signal}): no verdict, no report; restoring the emulator's state\n`;

test('Ctrl-C prints "interrupted", no scenario line, exit 130, removes the earlier report and says so', async () => {
  const run = await interrupted('SIGINT', 'node');
  expect(run.code).toBe(130);
  expect(run.stderr).toBe(`${INTERRUPTED('SIGINT')}[harness] the earlier report in ${out}/ was removed: this run has no verdict\n`);
  expect(run.stdout).toBe('');
  expect(readdirSync(folder)).toEqual([]);
});

test('SIGTERM (a CI runner cancelling the job) ends a run as Ctrl-C does, sent to the harness or to `npx harness verify` (issue 48 item 4, 49 item 3): no report, no staging folder, the terminal says so', async () => {
  const outcome = (run: Run) => ({ stdout: run.stdout, stderr: run.stderr, left: readdirSync(folder) });
  const direct = await interrupted('SIGTERM', 'node');
  expect(direct.code).toBe(130);
  expect(outcome(direct)).toEqual({ stdout: '', stderr: `${INTERRUPTED('SIGTERM')}[harness] the earlier report in ${out}/ was removed: this run has no verdict\n`, left: [] });
  // npx ends at once (killed by the signal) with the shell it started the harness in; the harness, its parent gone, ends its run the same way.
  mkdirSync(join(out, 'evidence'), { recursive: true });
  writeFileSync(join(out, REPORT_MARK), '{"written_by":"harness","published_at":0}\n');
  const npx = await interrupted('SIGTERM', 'npx');
  expect(outcome(npx)).toEqual({ ...outcome(direct), stderr: outcome(direct).stderr.replace('(SIGTERM)', '(the process that started it ended)') });
}, 60_000);

test('Ctrl-C in a terminal under `npx harness verify` (the whole group signalled, npx passing it on too) ends the run as Ctrl-C to the harness does (issue 49 item 3)', async () => {
  const run = await harness(['verify', '--callback', 'http://127.0.0.1:9/callback', '--emulator', emulator, '--out', out], { onStart: (child) => (asked = () => process.kill(-child.pid!, 'SIGINT')), via: 'npx' });
  expect(run.stdout).toBe('');
  expect(run.stderr).toContain(`${INTERRUPTED('SIGINT')}[harness] the earlier report in ${out}/ was removed: this run has no verdict\n`);
  expect(readdirSync(folder)).toEqual([]);
}, 60_000);

test('an --out folder holding files no run wrote is refused, untouched', async () => {
  writeFileSync(join(out, 'notes.txt'), 'mine');
  const run = await harness(['verify', '--callback', 'http://127.0.0.1:9/callback', '--emulator', 'http://127.0.0.1:9', '--out', out]);
  expect([run.code, run.stderr]).toEqual([2, `[harness] --out ${out} holds notes.txt, which no run wrote: a run replaces its report folder whole, so give it a folder of its own\n`]);
  expect(readdirSync(out).sort()).toEqual(['.harness-report', 'evidence', 'notes.txt', 'report.html']);
});
