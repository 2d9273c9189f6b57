/** `stop`, `status`, `env`, `reset` and `clock`: each finds the running emulator through its data folder. */
import { existsSync } from 'node:fs';
import { type ClockState, parseDuration } from '../clock.js';
import type { EnvValues } from '../use-cases/control/env-values.js';
import { CliError } from '../cli-error.js';
import { FolderInUse, folderHolder, holdFolderLock, releaseFolderLock } from './folder-lock.js';
import { control, findRunning, isAlive, look, removeInstance, requireRunning, waitUntil } from './instance.js';
import { type DataPaths, dataFlag, dataPaths } from './paths.js';
import { CLOCK_USAGE } from './clock-usage.js';
import { clockLine, envExports, say, shellQuote } from './print.js';
import { CLI } from './paths.js';

/** SIGTERM's grace: a clean stop commits and closes; then SIGKILL. */
const STOP_WITHIN_MS = 10_000;

/** Returns once the process is gone and the folder free, however long that takes: a stop that said "stopped" early let a second start orphan it. */
export async function stop(data: string): Promise<void> {
  const paths = dataPaths(data);
  const seen = await look(paths);
  // Stopping what is stopped is what was asked: a `set -e` teardown goes on.
  if (seen.state === 'stopped') return say(`[emulator] no emulator is running for data folder ${paths.dir}; nothing to stop`);
  const pid = seen.state === 'running' ? seen.instance.pid : seen.pid;
  if (pid === undefined) throw new CliError(`[emulator] a process holds data folder ${paths.dir} but its pid is unknown (${paths.lockOwner} is missing); stop it by hand`);
  const url = seen.state === 'running' ? seen.instance.base_url : seen.instance?.base_url;
  const where = url ? `at ${url} ` : '';
  const gone = () => !isAlive(pid) && !folderHolder(paths);
  signal(pid, 'SIGTERM');
  if (!(await waitUntil(gone, STOP_WITHIN_MS, 50))) {
    signal(pid, 'SIGKILL');
    if (!(await waitUntil(gone, STOP_WITHIN_MS, 50))) throw new CliError(`[emulator] the emulator (pid ${pid}) did not end even on SIGKILL within ${STOP_WITHIN_MS / 1000} s; it may be stuck in the kernel (a hung disk)`);
    removeInstance(paths, pid);
    say(`[emulator] killed the emulator ${where}(pid ${pid}): it did not stop within ${STOP_WITHIN_MS / 1000} s of SIGTERM`);
    return;
  }
  say(`[emulator] stopped the emulator ${where}(pid ${pid})`);
}

/** A process that ended between the look and the signal is what was asked for. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Exit 0 when running, 1 when not, so scripts can ask. */
export async function status(data: string): Promise<void> {
  const paths = dataPaths(data);
  const instance = await findRunning(paths);
  if (instance) {
    say(`[emulator] running at ${instance.base_url} (pid ${instance.pid}), data in ${paths.dir}`);
    return;
  }
  say(`[emulator] not running for data folder ${paths.dir}; start one with \`${CLI} start${dataFlag(paths.dir)}\``);
  process.exitCode = 1;
}

/** The default promotion's values, or those of the one `--promotion` names; the exports say which in a comment. */
export async function env(data: string, options: { json?: boolean; promotion?: string }): Promise<void> {
  const instance = await requireRunning(dataPaths(data));
  const query = options.promotion === undefined ? '' : `?${new URLSearchParams({ promotion: options.promotion })}`;
  const values = (await control(instance, 'GET', `/env${query}`)) as EnvValues;
  // An emulator that asks for its control token (control/guard.ts): the harness then needs it too.
  const token = instance.control_token ? `export HARNESS_CONTROL_TOKEN=${shellQuote(instance.control_token)}\n` : '';
  process.stdout.write(options.json ? `${JSON.stringify(values, null, 2)}\n` : envExports(values, options.promotion !== undefined) + token);
}

export async function reset(data: string): Promise<void> {
  const instance = await requireRunning(dataPaths(data));
  await control(instance, 'POST', '/reset');
  say(`[emulator] reset: the world is seeded from the fixture again; entries, sessions and scans are gone. The clock stays where it is (\`${CLI} clock reset\` puts it back on system time)`);
}

export type ClockAction = 'advance' | 'freeze' | 'unfreeze' | 'reset';

/**
 * Without an action, shows the clock; `advance 31m`, `freeze [ISO time]`, `unfreeze`, `reset` move
 * it. `reset` also repairs a data folder no emulator serves, whose saved clock stops it starting.
 */
export async function clock(data: string, action: ClockAction | undefined, value: string | undefined): Promise<void> {
  const body = action && (await clockBody(action, value));
  const paths = dataPaths(data);
  if (action === 'reset' && !(await findRunning(paths))) return resetStoppedClock(paths);
  const instance = await requireRunning(paths);
  const state = (body ? await control(instance, 'POST', '/clock', body) : await control(instance, 'GET', '/clock')) as Required<ClockState> & { now: string };
  say(clockLine(state));
}

async function resetStoppedClock(paths: DataPaths): Promise<void> {
  if (!existsSync(paths.database)) throw new CliError(`[emulator] no emulator data in ${paths.dir}; nothing to reset`);
  // Held while the clock is written, so no emulator starts on the folder meanwhile.
  try {
    holdFolderLock(paths);
  } catch (error) {
    if (!(error instanceof FolderInUse)) throw error;
    throw new CliError(`[emulator] an emulator is starting on data folder ${paths.dir}; run \`${CLI} clock reset${dataFlag(paths.dir)}\` once it answers`);
  }
  const [{ openDb }, { resetSavedClock }] = await Promise.all([import('../store/db.js'), import('../store/saved-clock.js')]);
  const db = openDb(paths.database);
  try {
    resetSavedClock(db);
  } finally {
    db.close();
    releaseFolderLock();
  }
  say(`[emulator] clock follows system time again in ${paths.dir} (no emulator is running; \`${CLI} start${dataFlag(paths.dir)}\` starts one)`);
}

/** A value the clock cannot read is a usage error (exit 2), answered with the accepted forms. */
async function clockBody(action: ClockAction, value: string | undefined): Promise<object> {
  if (action === 'advance') {
    if (value?.startsWith('-')) throw clockUsage(`the clock only moves forward: ${value} would take it back; \`${CLI} clock reset\` puts it back on system time, \`${CLI} clock freeze <ISO time>\` stops it at any time`);
    if (!value || parseDuration(value) === undefined) throw clockUsage(value ? `${value} is not a duration` : 'say how far to advance');
    return { advance: value };
  }
  if (action === 'freeze') {
    if (value !== undefined && !(await import('../control/clock-time.js')).ClockTime.safeParse(value).success) {
      throw clockUsage(`${value} is not an ISO time with Z or an offset, such as 2026-12-24T18:00:00Z`);
    }
    return { freeze: value ?? true };
  }
  if (value !== undefined) throw clockUsage(`\`clock ${action}\` takes no value (got ${value})`);
  return action === 'reset' ? { reset: true } : { unfreeze: true };
}

function clockUsage(problem: string): CliError {
  return new CliError(`[emulator] ${problem}. Usage:\n${CLOCK_USAGE}`, 2);
}
