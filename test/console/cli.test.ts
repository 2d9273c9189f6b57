import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Command } from 'commander';
import { consoleCommands } from '../../emulator/cli/console.js';
import { CliError } from '../../emulator/cli-error.js';
import { holdFolderLock, releaseFolderLock } from '../../emulator/cli/folder-lock.js';
import { writeInstance } from '../../emulator/cli/instance.js';
import { dataPaths } from '../../emulator/cli/paths.js';
import { createLogger } from '../../emulator/logger.js';
import { type Running, startServer } from '../../emulator/server.js';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import { DEFAULT_FIXTURE, FROZEN_AT } from '../world.js';
import { coverSandbox, fetchPost } from '../support/sandbox-coverage.js';

let running: Running;
let data: string;

beforeAll(async () => {
  running = await startServer({
    fixture: DEFAULT_FIXTURE, data: ':memory:', host: '127.0.0.1', port: 0, clock: { mode: 'frozen', frozenAt: FROZEN_AT },
    logger: createLogger('emulator', { level: 'silent' }),
  });
  data = mkdtempSync(join(tmpdir(), 'emulator-console-'));
  writeInstance(dataPaths(data), { pid: process.pid, base_url: running.baseUrl, fixture: 'default', started_at: new Date(FROZEN_AT).toISOString() });
  // The in-process server stands for a started emulator: it holds the folder as `emulator start` does.
  holdFolderLock(dataPaths(data));
});

afterAll(async () => {
  releaseFolderLock();
  await running.close();
  rmSync(data, { recursive: true, force: true });
});

/** Runs `emulator <args> --data <dir>` in this process and returns what it printed on stdout and stderr. */
async function printed(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const spies = (['stdout', 'stderr'] as const).map((stream) => vi.spyOn(process[stream], 'write').mockImplementation((chunk) => {
    out[stream] += String(chunk);
    return true;
  }));
  try {
    const program = new Command('emulator').exitOverride();
    for (const command of consoleCommands()) program.addCommand(command);
    await program.parseAsync([...args, '--data', data], { from: 'user' });
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return out;
}

const emulator = async (...args: string[]) => (await printed(...args)).stdout;

const DEFAULT_LINE = '[emulator] promotion #1 spring-instant-win (Spring Instant Win), the default: name another with --promotion';
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('emulator keys, callback, checklist, approve, pause, resume', () => {
  it('walks the lifecycle: keys, callback, checklist, a refused then granted approval, pause and resume', async () => {
    // The headings on stderr: `keys list | head -1` is a key.
    const keys = await printed('keys', 'list');
    expect(keys.stderr).toMatch(new RegExp(`^${escape(DEFAULT_LINE)}\nID\\s+ENV\\s+KEY\\s+STATUS\\s+EXPIRES\n$`));
    expect(keys.stdout).toMatch(/^1\s+sandbox\s+pk_sandbox_…\S{4}\s+active\s+2027-02-19\n2\s+production/);
    const created = JSON.parse(await emulator('keys', 'create', '--env', 'production', '--json')) as { id: number; secret: string };
    expect(created.secret).toMatch(/^pk_live_/);
    expect(await emulator('keys', 'rotate', String(created.id))).toContain(`to replace #${created.id}`);
    expect(await emulator('keys', 'revoke', String(created.id))).toContain(`revoked production key #${created.id}`);

    await expect(emulator('callback', 'set', '--production', 'http://agency.example/cb')).rejects.toThrow(/production must use https/);
    const set = await emulator('callback', 'set', '--production', 'http://localhost:3000/callback', '--preview', 'https://preview.agency.example/cb');
    expect(set).toContain('[emulator] production callback: http://localhost:3000/callback');
    expect(set).toContain('warning: the production callback uses plain http on loopback');

    expect(await emulator('checklist')).toContain('checklist incomplete: 12 step(s) to go');
    await expect(emulator('approve')).rejects.toThrow(CliError);
    await expect(emulator('approve')).rejects.toThrow(/Missing: checklist won: create a sandbox session/);
    await coverSandbox(fetchPost(running.baseUrl, envValues(running.world).sandbox_key!));
    expect(JSON.parse(await emulator('checklist', '--json'))).toMatchObject({ complete: true });
    expect(await emulator('approve')).toBe(`${DEFAULT_LINE}\n[emulator] approved at ${new Date(FROZEN_AT).toISOString()}\n`);

    expect(await emulator('pause')).toBe(`${DEFAULT_LINE}\n[emulator] paused: production scans go to the hosted page: the brand paused routing to the agency\n`);
    expect(await emulator('resume')).toBe(`${DEFAULT_LINE}\n[emulator] resumed: production scans go to the agency at http://localhost:3000/callback\n`);
  });

  it('acts on the promotion --promotion names, by slug or id, and on no other', async () => {
    const line = '[emulator] promotion #2 nordkakao-cafe-codes (Nordkakao Café Codes)';
    const keys = await printed('keys', 'list', '--promotion', 'nordkakao-cafe-codes');
    expect(keys.stderr).toMatch(new RegExp(`^${escape(line)}\nID\\s+ENV\\s+KEY\\s+STATUS\\s+EXPIRES\n$`));
    expect(keys.stdout).toMatch(/^3\s+sandbox\s+\S+\s+active\s+\S+\n4\s+production/);
    expect(await emulator('checklist', '--promotion', '2')).toContain(`${line}\ntodo  won`);
    await expect(emulator('keys', 'revoke', '1', '--promotion', 'nordkakao-cafe-codes')).rejects.toThrow(/nordkakao-cafe-codes has no agency key with that id/);
    expect(await emulator('pause', '--promotion', 'nordkakao-cafe-codes')).toBe(`${line}\n[emulator] paused: production scans go to the hosted page: the brand has not approved the agency experience; the brand paused routing to the agency; no production callback URL is set\n`);
    expect(JSON.parse(await emulator('checklist', '--json')).promotion).toMatchObject({ id: 1, default: true });
    expect((await emulator('resume', '--promotion', 'nordkakao-cafe-codes')).startsWith(`${line}\n[emulator] resumed`)).toBe(true);
    await expect(emulator('checklist', '--promotion', 'no-such-promotion')).rejects.toThrow(/No promotion "no-such-promotion"/);
  });

  it('says how to start an emulator when none runs for the data folder', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'emulator-none-'));
    const program = new Command('emulator').exitOverride();
    for (const command of consoleCommands()) program.addCommand(command);
    await expect(program.parseAsync(['checklist', '--data', empty], { from: 'user' })).rejects.toThrow(/no emulator is running for data folder/);
    rmSync(empty, { recursive: true, force: true });
  });
});
