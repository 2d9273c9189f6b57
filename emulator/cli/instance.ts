/** The instance file in a data folder, finding the emulator it names, and calling its control plane. */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { CliError } from '../cli-error.js';
import { folderHolder } from './folder-lock.js';
import { type DataPaths, dataFlag } from './paths.js';
import { CLI } from './paths.js';
import { sayError } from './print.js';

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

/** How long a command waits for an emulator that holds its folder but does not answer yet (starting, or busy). */
export const ANSWER_WITHIN_MS = 60_000;
/** After this long without an answer, a command says that it waits, and for what. */
const SAY_WAITING_AFTER_MS = 2000;
/** One health call may take this long on a busy machine; it is asked again until ANSWER_WITHIN_MS. */
const HEALTH_TIMEOUT_MS = 5000;

export type Liveness =
  | { state: 'running'; instance: Instance }
  /** The folder's lock is free: no process serves it, whatever a leftover instance file says. */
  | { state: 'stopped' }
  /** A process holds the folder's lock but its health does not answer (yet): starting, or busy. */
  | { state: 'silent'; pid: number | undefined; instance: Instance | undefined };

/** One look: the folder's lock says whether a process serves it, health whether it answers. */
export async function look(paths: DataPaths): Promise<Liveness> {
  const holder = folderHolder(paths);
  if (!holder) return { state: 'stopped' };
  const instance = readInstance(paths);
  const ours = instance !== undefined && (holder.pid === undefined || instance.pid === holder.pid) ? instance : undefined;
  if (ours && (await isHealthy(ours))) return { state: 'running', instance: ours };
  return { state: 'silent', pid: holder.pid ?? ours?.pid, instance: ours };
}

/**
 * The folder's emulator once it answers; undefined when none holds the folder. Patient: while a
 * process holds the folder without answering (starting, or busy with a large read or a seed), it
 * waits up to ANSWER_WITHIN_MS, saying so on stderr, then says that it is there but silent.
 */
export async function findRunning(paths: DataPaths): Promise<Instance | undefined> {
  const started = performance.now();
  let pid: number | undefined;
  // A timer, not a check between looks: one look may itself wait seconds on a silent process.
  const waiting = setTimeout(() => {
    sayError(`[emulator] the emulator of data folder ${paths.dir}${pid ? ` (pid ${pid})` : ''} is still starting or busy; waiting up to ${ANSWER_WITHIN_MS / 1000} s for it to answer…`);
  }, SAY_WAITING_AFTER_MS);
  try {
    for (;;) {
      const seen = await look(paths);
      if (seen.state === 'running') return seen.instance;
      if (seen.state === 'stopped') return undefined;
      pid = seen.pid;
      const waited = performance.now() - started;
      if (waited >= ANSWER_WITHIN_MS) throw new CliError(silentProblem(paths, seen.pid, waited));
      await sleep(200);
    }
  } finally {
    clearTimeout(waiting);
  }
}

function silentProblem(paths: DataPaths, pid: number | undefined, waitedMs: number): string {
  const which = pid ? `process ${pid}` : 'a process';
  return `[emulator] ${which} holds data folder ${paths.dir} but has not answered for ${Math.round(waitedMs / 1000)} s (busy, or stuck); wait, or stop it with \`${CLI} stop${dataFlag(paths.dir)}\``;
}

export async function isHealthy(instance: Instance): Promise<boolean> {
  try {
    const health = (await control(instance, 'GET', '/health', undefined, HEALTH_TIMEOUT_MS)) as { status?: string; pid?: number };
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
export async function controlResponse(instance: Instance, method: 'GET' | 'POST', path: string, body?: unknown, timeoutMs = 5000, cancel?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = {};
  if (method !== 'GET') headers['content-type'] = 'application/json';
  if (instance.control_token) headers.authorization = `Bearer ${instance.control_token}`;
  const url = `${instance.base_url}/_emulator${path}`;
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: cancel ? AbortSignal.any([cancel, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs) }).catch((error: Error) => {
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
