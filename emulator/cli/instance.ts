/** The instance file in a data folder, finding the emulator it names, and calling its control plane. */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { CliError } from '../cli-error.js';
import { type DataPaths, dataFlag } from './paths.js';
import { CLI } from './paths.js';

export interface Instance {
  pid: number;
  /** Where the emulator listens; the CLI calls the control plane there. */
  base_url: string;
  /** `--public-url`, when the address agencies and browsers use is another. */
  public_url?: string;
  control_token?: string;
  fixture: string;
  started_at: string;
}

export function readInstance(paths: DataPaths): Instance | undefined {
  try {
    return JSON.parse(readFileSync(paths.instance, 'utf8')) as Instance;
  } catch {
    return undefined;
  }
}

/** Written whole then renamed, so a reader never sees half a file; private, as it may hold the control token. */
export function writeInstance(paths: DataPaths, instance: Instance): void {
  const partial = `${paths.instance}.${instance.pid}`;
  writeFileSync(partial, `${JSON.stringify(instance, null, 2)}\n`, { mode: 0o600 });
  renameSync(partial, paths.instance);
}

/** Removes the instance file if it still names `pid`. */
export function removeInstance(paths: DataPaths, pid: number): void {
  if (readInstance(paths)?.pid === pid) rmSync(paths.instance, { force: true });
}

/** The instance whose process answers health with its own pid; a leftover file names nothing. */
export async function findRunning(paths: DataPaths): Promise<Instance | undefined> {
  const instance = readInstance(paths);
  if (!instance) return undefined;
  return (await isHealthy(instance)) ? instance : undefined;
}

export async function isHealthy(instance: Instance): Promise<boolean> {
  try {
    const health = (await control(instance, 'GET', '/health', undefined, 1000)) as { status?: string; pid?: number };
    return health.status === 'ok' && health.pid === instance.pid;
  } catch {
    return false;
  }
}

export async function requireRunning(paths: DataPaths): Promise<Instance> {
  const instance = await findRunning(paths);
  if (!instance) throw new CliError(`[emulator] no emulator is running for data folder ${paths.dir}; start one with \`${CLI} start${dataFlag(paths.dir)}\``);
  return instance;
}

/** Calls `/_emulator{path}`; an error answer becomes a CliError carrying the emulator's message. */
export async function control(instance: Instance, method: 'GET' | 'POST', path: string, body?: unknown, timeoutMs = 5000): Promise<unknown> {
  return (await controlResponse(instance, method, path, body, timeoutMs)).json();
}

/** The answer of `/_emulator{path}` once it is a success, its body unread (for streamed answers). */
export async function controlResponse(instance: Instance, method: 'GET' | 'POST', path: string, body?: unknown, timeoutMs = 5000): Promise<Response> {
  const headers: Record<string, string> = {};
  if (method !== 'GET') headers['content-type'] = 'application/json';
  if (instance.control_token) headers.authorization = `Bearer ${instance.control_token}`;
  const url = `${instance.base_url}/_emulator${path}`;
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) }).catch((error: Error) => {
    throw new CliError(`[emulator] the emulator (pid ${instance.pid}) did not answer ${url}: ${(error.cause as Error | undefined)?.message ?? error.message}; see \`${CLI} status\``);
  });
  if (res.ok) return res;
  const answer = (await res.json()) as { message?: string; error?: string };
  throw new CliError(`[emulator] ${answer.message ?? answer.error ?? `the emulator answered ${res.status}`}`);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** An exited process not yet reaped by its parent (a detached emulator's is init) still answers kill(pid, 0). */
function isZombie(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.startsWith('Z');
  } catch {
    return false;
  }
}

/** Polls `check` every `everyMs` until it returns true; false once `timeoutMs` has passed. */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 20): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await check()) return true;
    await sleep(everyMs);
  }
  return check();
}
