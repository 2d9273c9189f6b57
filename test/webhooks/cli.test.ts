import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { holdFolderLock, releaseFolderLock } from '../../emulator/cli/folder-lock.js';
import { writeInstance } from '../../emulator/cli/instance.js';
import { dataPaths } from '../../emulator/cli/paths.js';
import { seedCommand } from '../../emulator/cli/seed.js';
import { webhooksCommand } from '../../emulator/cli/webhooks.js';
import { countScans } from '../../emulator/store/scans.js';
import { type RunningEmulator, runningEmulator } from './emulator.js';

let t: RunningEmulator;
let data: string;
beforeEach(async () => {
  t = await runningEmulator();
  data = mkdtempSync(join(tmpdir(), 'emulator-cli-'));
  const base = t.running.baseUrl;
  writeInstance(dataPaths(data), { pid: process.pid, base_url: base, fixture: 'default.json', started_at: '2026-11-21T10:00:00.000Z' });
  // The in-process server stands for a started emulator: it holds the folder as `emulator start` does.
  holdFolderLock(dataPaths(data));
});
afterEach(async () => {
  releaseFolderLock();
  vi.restoreAllMocks();
  rmSync(data, { recursive: true, force: true });
  await t.running.close();
});

/** Runs a subcommand as `emulator <args> --data <dir>` would, returning what it printed. */
async function run(command: Command, args: string[]): Promise<string> {
  for (const sub of [command, ...command.commands]) sub.exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  let printed = '';
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((printed += String(chunk)), true));
  try {
    await command.parseAsync([...args, '--data', data], { from: 'user' });
  } finally {
    write.mockRestore();
  }
  return printed.replace(/\n$/, '');
}

test('`webhooks add` refuses an unknown event name before calling the emulator', async () => {
  await expect(run(webhooksCommand(), ['add', 'https://crm.example/hooks', '--events', 'scan.created'])).rejects.toMatchObject({ code: 'commander.invalidArgument' });
  expect((await t.api.get('/_emulator/webhooks')).body.data).toEqual([]);
});

test('`webhooks remove` of an unknown id fails with the emulator\'s message', async () => {
  await expect(run(webhooksCommand(), ['remove', '42'])).rejects.toThrow('[emulator] No webhook endpoint 42; see GET /_emulator/webhooks.');
  await expect(run(webhooksCommand(), ['remove', 'first'])).rejects.toMatchObject({ code: 'commander.invalidArgument' });
});

test('the commands say so when no emulator runs for the data folder', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'emulator-cli-none-'));
  try {
    await expect(seedCommand().exitOverride().parseAsync(['--scans', '5', '--data', empty], { from: 'user' })).rejects.toThrow(/no emulator is running/);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test('`webhooks add URL --json` prints the endpoint with its secret; without --json a readable summary', async () => {
  const json = JSON.parse(await run(webhooksCommand(), ['add', 'https://crm.example/hooks', '--json']));
  expect(json).toMatchObject({ id: 1, url: 'https://crm.example/hooks', secret: expect.stringMatching(/^whsec_/) });
  const text = await run(webhooksCommand(), ['add', 'https://erp.example/hooks', '--events', 'scan.processed', 'batch.export_ready']);
  expect(text).toContain('[emulator] webhook endpoint 2 receives scan.processed, batch.export_ready at https://erp.example/hooks');
  expect(text).toMatch(/Signing secret \(shown once\): whsec_/);
});

test('`webhooks list` shows the endpoints without secrets; `remove ID` removes one', async () => {
  await run(webhooksCommand(), ['add', 'https://crm.example/hooks']);
  const listed = await run(webhooksCommand(), ['list']);
  expect(listed).toMatch(/^1 +https:\/\/crm\.example\/hooks {2}scan\.processed,activation\.entered,batch\.generated,batch\.export_ready$/);
  expect(listed).not.toContain('whsec_');
  expect(JSON.parse(await run(webhooksCommand(), ['list', '--json']))).toHaveLength(1);
  expect(await run(webhooksCommand(), ['remove', '1'])).toBe('[emulator] removed webhook endpoint 1');
  expect(await run(webhooksCommand(), ['list'])).toContain('no webhook endpoints');
});

test('`seed --scans N` adds N scans to the running emulator', async () => {
  const before = countScans(t.world.db);
  expect(await run(seedCommand(), ['--scans', '500'])).toMatch(/^\[emulator\] seeded 500 scans in \d+\.\d s$/);
  expect(countScans(t.world.db)).toBe(before + 500);
  await expect(run(seedCommand(), ['--scans', '0'])).rejects.toMatchObject({ code: 'commander.invalidArgument' });
});
