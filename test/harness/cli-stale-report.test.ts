/**
 * The stale report (issue 42 item 5): after a run that approved, a run that could not run (exit 2)
 * or was interrupted (Ctrl-C) leaves no report behind saying "Approve", and an interrupted run says
 * so without a scenario line that reads like a failure of the agency. The built CLI, spawned; the
 * "emulator" a server that never answers, so Ctrl-C lands mid-preflight without a browser.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';

const CLI = fileURLToPath(new URL('../../dist/harness/cli.js', import.meta.url));

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
});

function harness(args: string[], onStart?: (child: ReturnType<typeof spawn>) => void): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    onStart?.(child);
  });
}

test('a run that could not run (exit 2) leaves no earlier report behind', async () => {
  const run = await harness(['verify', '--callback', 'http://127.0.0.1:9/callback', '--emulator', 'http://127.0.0.1:9', '--out', out]);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/^\[harness\] the emulator at http:\/\/127\.0\.0\.1:9 is not reachable/);
  expect(readdirSync(folder)).toEqual([]);
});

test('Ctrl-C prints "interrupted", no scenario line, exit 130, and leaves no report', async () => {
  const run = await harness(['verify', '--callback', 'http://127.0.0.1:9/callback', '--emulator', emulator, '--out', out], (child) => {
    // Interrupted once the run is under way: the emulator has been asked.
    asked = () => child.kill('SIGINT');
  });
  expect(run.code).toBe(130);
  expect(run.stderr).toBe("[harness] interrupted: no verdict, no report; restoring the emulator's state\n");
  expect(run.stdout).toBe('');
  expect(existsSync(out)).toBe(false);
  expect(readdirSync(folder)).toEqual([]);
});

test('an --out folder holding files no run wrote is refused, untouched', async () => {
  writeFileSync(join(out, 'notes.txt'), 'mine');
  const run = await harness(['verify', '--callback', 'http://127.0.0.1:9/callback', '--emulator', 'http://127.0.0.1:9', '--out', out]);
  expect([run.code, run.stderr]).toEqual([2, `[harness] --out ${out} holds notes.txt, which no run wrote: a run replaces its report folder whole, so give it a folder of its own\n`]);
  expect(readdirSync(out).sort()).toEqual(['evidence', 'notes.txt', 'report.html']);
});
