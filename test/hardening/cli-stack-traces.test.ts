/**
 * Issue 26, item 4: commands that crashed with a stack trace. `emulator seed --scans 3 --webhooks`
 * threw `RangeError: The value of "delay" is out of range` (a timeout of 30000.3 ms), and a reader
 * that stops early (`harness checks | head -1`, `emulator env | head -1`) ended the command with an
 * unhandled EPIPE. Here the reader's end of the pipe is closed before the command writes a byte, so
 * every write it makes meets the closed pipe, as the writes after `head`'s first line do.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { type CliRun, runCli, scratchFolder, startEmulator } from './processes.js';

const built = (path: string) => fileURLToPath(new URL(`../../dist/${path}`, import.meta.url));

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** One run of a built CLI whose stdout is a pipe nobody reads: closed at once. */
function intoClosedPipe(cli: string, ...args: string[]): Promise<Omit<CliRun, 'stdout'>> {
  const child = spawn(process.execPath, [built(cli), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

async function started() {
  const scratch = scratchFolder((fixture) => ({ ...fixture, history: { scans: 0 } }));
  cleanup.push(scratch.remove);
  const emulator = await startEmulator({ data: scratch.data, fixture: scratch.fixture });
  cleanup.push(() => emulator.stop('SIGKILL'));
  return scratch.data;
}

test('seed --scans 3 --webhooks: a count not a multiple of ten seeds, no RangeError', { timeout: 60_000 }, async () => {
  const data = await started();
  const run = await runCli('seed', '--scans', '3', '--webhooks', '--data', data);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^\[emulator\] seeded 3 scans in \d+\.\d s\n$/);
});

test('emulator env and status into a closed pipe end quietly, exit 0, no EPIPE', { timeout: 60_000 }, async () => {
  const data = await started();
  for (const command of ['env', 'status']) {
    const run = await intoClosedPipe('emulator/cli.js', command, '--data', data);
    expect(run.stderr, command).not.toMatch(/EPIPE|Error|\n\s+at /);
    expect(run.code, `${command}: ${run.stderr}`).toBe(0);
  }
});

test('harness checks and scenarios into a closed pipe end quietly, exit 0, no EPIPE', { timeout: 60_000 }, async () => {
  for (const command of ['checks', 'scenarios']) {
    const run = await intoClosedPipe('harness/cli.js', command);
    expect(run.stderr, command).toBe('');
    expect(run.code, command).toBe(0);
  }
});

test('npm run bench: a part it does not know is one line naming the parts, exit 2, no stack trace', { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, [built('bench/run.js')], { env: { ...process.env, BENCH_ONLY: 'campaign,nope' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect([code, stderr]).toEqual([2, expect.stringMatching(/^\[bench\] BENCH_ONLY names no part nope; the parts: campaign, .*verify, hostile\n$/)]);
});
