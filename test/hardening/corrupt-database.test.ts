/**
 * Round three, item 5: a database with pages corrupted in the middle of the file made `start`
 * print "Something went wrong" and hang; the server it left answered `/health` 200 and everything
 * else 500. Now `start` checks the pages (`PRAGMA quick_check`) and refuses in one line that says
 * how to recover, and health answers 503 when the world cannot be read.
 */
import { openSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { freePort, runCli, scratchFolder, startEmulator } from './processes.js';

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

test('pages corrupted mid-file: start refuses at once in one line saying how to recover, and serves nothing', { timeout: 90_000 }, async () => {
  const scratch = scratchFolder((fixture) => ({ ...fixture, history: { scans: 3000 } }));
  cleanup.push(scratch.remove);
  const first = await startEmulator({ data: scratch.data, fixture: scratch.fixture });
  expect(await first.stop()).toEqual({ code: 0, signal: null });

  const database = join(scratch.data, 'emulator.sqlite');
  const size = statSync(database).size;
  const fd = openSync(database, 'r+');
  const garbage = Buffer.alloc(64 * 1024, 0xa5);
  writeSync(fd, garbage, 0, garbage.length, Math.floor(size / 2 / 4096) * 4096);
  closeSync(fd);

  const port = await freePort();
  const run = await runCli('start', '--foreground', '--data', scratch.data, '--fixture', scratch.fixture, '--port', String(port));
  expect(run.code).toBe(1);
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^\[emulator\] the database in .* is damaged \(.+\); restore .*emulator\.sqlite from a backup, or move it away/);
  expect(run.stdout + run.stderr).not.toContain('Something went wrong');
  await expect(fetch(`http://127.0.0.1:${port}/_emulator/health`)).rejects.toThrow();

  rmSync(database);
  const fresh = await startEmulator({ data: scratch.data, fixture: scratch.fixture });
  cleanup.push(() => fresh.stop());
  expect((await fetch(`${fresh.baseUrl}/_emulator/env`)).status).toBe(200);
});
