/** What the packaging tests share: temp folders, free ports, spawned commands and health waits. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const ROOT = new URL('../../', import.meta.url).pathname;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject).once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A long-running process, stopped by `stopAll`. */
const children: ChildProcess[] = [];
export function startProcess(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): ChildProcess {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

export async function stopAll(): Promise<void> {
  await Promise.all(
    children.splice(0).map((child) =>
      child.exitCode === null && child.signalCode === null ? new Promise((done) => child.once('exit', done).kill('SIGTERM')) : undefined,
    ),
  );
}

const folders: string[] = [];
export function tempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

export function removeTempFolders(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** Polls until `url` answers 200, or fails with what the process printed. */
export async function waitForOk(url: string, child: ChildProcess, withinMs = 15_000): Promise<void> {
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const deadline = performance.now() + withinMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} before ${url} answered:\n${output}`);
    if (await fetch(url).then((response) => response.ok, () => false)) return;
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${withinMs} ms:\n${output}`);
}

/** Stops the emulator whose data folder is `data`, if one still runs there (a test stopped before stopping it). */
export function stopEmulatorOf(data: string): void {
  const instance = join(data, 'instance.json');
  if (!existsSync(instance)) return;
  try {
    process.kill((JSON.parse(readFileSync(instance, 'utf8')) as { pid: number }).pid, 'SIGTERM');
  } catch {
    // already gone
  }
}
