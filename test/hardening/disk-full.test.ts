/**
 * Round three, item 2: on a 2 MB tmpfs, after a failed seed, four more requests crashed the server
 * with an uncaught `ENOSPC` from the log writer (pino's destination emitted it as an 'error' nobody
 * handled); every later request failed to connect. Now a write with no room answers a JSON 507
 * `storage_full`, the log file drops the lines it has no room for (and later says how many), and
 * the process stays up and works again once there is room.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { createLogger, logFile } from '../../emulator/logger.js';
import { mountable, runCli, scratchFolder, startEmulator } from './processes.js';

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** Writes zeros to `path` until the file system has no room left (ENOSPC), then keeps the file. */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(4096);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

test('the log file on a full disk (/dev/full) drops its lines instead of ending the process', () => {
  const file = logFile('/dev/full');
  cleanup.push(() => file.close());
  const logger = createLogger('emulator', {}, file);
  expect(() => {
    for (let i = 0; i < 10; i++) logger.error({ i }, 'a line the disk has no room for');
  }).not.toThrow();
});

test('a full data folder: JSON 507 storage_full per write, the process stays up, and recovers once there is room', { timeout: 90_000 }, async (context) => {
  if (!mountable) return context.skip('mounting a tmpfs needs root and mount(8)');
  const scratch = scratchFolder((fixture) => ({ ...fixture, history: { scans: 0 } }));
  cleanup.push(scratch.remove);
  const disk = join(scratch.dir, 'disk');
  mkdirSync(disk);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', disk], { stdio: 'ignore' });
  } catch {
    return context.skip('mounting a tmpfs is not permitted here');
  }
  cleanup.push(() => execFileSync('umount', [disk]));
  const data = join(disk, 'data');
  const emulator = await startEmulator({ data, fixture: scratch.fixture });
  cleanup.push(() => emulator.stop('SIGKILL'));
  const seed = (scans: number) => fetch(`${emulator.baseUrl}/_emulator/seed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scans }) });

  const filler = join(disk, 'filler');
  fillDisk(filler);
  // 20,000 scans need megabytes: more than any page SQLite has spare.
  const refused = await seed(20_000);
  expect(refused.status, emulator.output()).toBe(507);
  expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await refused.json()).toMatchObject({ error: 'storage_full' });
  // Each of these logs a line; past the log file's last page (4 KB) the disk has no room for them: four ended the process before.
  for (let i = 0; i < 40; i++) expect((await fetch(`${emulator.baseUrl}/_emulator/env`)).status).toBe(200);
  const cli = await runCli('seed', '--scans', '20000', '--data', data);
  expect(cli.code).toBe(1);
  expect(cli.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^\[emulator\] seeding stopped: The disk holding the emulator's data folder is full.*; 0 of 20,000 scans were added/)]);
  expect((await fetch(`${emulator.baseUrl}/_emulator/health`)).status).toBe(200);
  expect(emulator.child.exitCode).toBeNull();

  rmSync(filler);
  const seeded = await seed(1000);
  expect(seeded.status, emulator.output()).toBe(200);
  expect(await seeded.json()).toMatchObject({ scans: 1000 });
  expect(readFileSync(join(data, 'emulator.log'), 'utf8')).toMatch(/"msg":"\d+ log lines were dropped: the disk was full"/);
});
