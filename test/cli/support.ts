/** The built `emulator` command from outside, on temp data folders and free ports: what the CLI's process tests share. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { EnvValues } from '../../emulator/use-cases/control/env-values.js';
import type { Fixture } from '../../emulator/fixture.js';
import { type CliRun, freePort, runCli as emulator } from '../hardening/processes.js';

const folders: string[] = [];
const servers: Server[] = [];

export function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'emulator-cli-'));
  folders.push(folder);
  return folder;
}

/** Holds `port` on 127.0.0.1 until cleanUp, as another program would. */
export function occupy(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(port, '127.0.0.1', () => {
      servers.push(server);
      resolve(server);
    }).once('error', reject);
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** For each file's afterEach: frees the held ports, kills any emulator a test left running, removes the temp folders. */
export function cleanUp(): void {
  for (const server of servers.splice(0)) server.close();
  for (const folder of folders.splice(0)) {
    const instance = join(folder, 'data', 'instance.json');
    if (existsSync(instance)) {
      const { pid } = JSON.parse(readFileSync(instance, 'utf8')) as { pid: number };
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A data folder and a free port, and the CLI bound to them. */
export async function instance(fixture?: Fixture) {
  const folder = tempFolder();
  const data = join(folder, 'data');
  const port = await freePort();
  const fixturePath = join(folder, 'fixture.json');
  if (fixture) writeFileSync(fixturePath, JSON.stringify(fixture));
  const fixtureArgs = fixture ? ['--fixture', fixturePath] : [];
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    data, port, baseUrl, fixturePath,
    start: (...args: string[]) => emulator('start', '--port', String(port), '--data', data, ...fixtureArgs, ...args),
    run: (command: string, ...args: string[]) => emulator(command, ...args, '--data', data),
    env: async () => JSON.parse((await emulator('env', '--json', '--data', data)).stdout) as EnvValues,
    campaign: (key: string) => fetch(`${baseUrl}/api/experience/v1/campaign`, { headers: { authorization: `Bearer ${key}` } }),
  };
}

/** One line, prefixed, no stack trace. */
export function expectOneLineFailure(run: CliRun, text: string) {
  expect(run.code).toBe(1);
  expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^\[emulator\] /)]);
  expect(run.stderr).toContain(text);
}
