/** `stop`, `status`, `env`, `reset` and `clock`: each finds the running emulator through its data folder. */
import { existsSync } from 'node:fs';
import { type ClockState, parseDuration } from '../clock.js';
import type { EnvValues } from '../control/env.js';
import { CliError } from '../cli-error.js';
import { control, findRunning, isAlive, readInstance, removeInstance, requireRunning, waitUntil } from './instance.js';
import { type DataPaths, dataFlag, dataPaths } from './paths.js';
import { CLOCK_USAGE } from './clock-usage.js';
import { clockLine, envExports, say } from './print.js';
import { CLI } from './paths.js';

const STOP_WITHIN_MS = 5000;

export async function stop(data: string): Promise<void> {
  const paths = dataPaths(data);
  const { pid, base_url } = await requireRunning(paths);
  process.kill(pid, 'SIGTERM');
  if (!(await waitUntil(() => !isAlive(pid), STOP_WITHIN_MS))) {
    process.kill(pid, 'SIGKILL');
    removeInstance(paths, pid);
    say(`[emulator] killed the emulator at ${base_url} (pid ${pid}): it did not stop within ${STOP_WITHIN_MS / 1000} s of SIGTERM`);
    return;
  }
  say(`[emulator] stopped the emulator at ${base_url} (pid ${pid})`);
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
  process.stdout.write(options.json ? `${JSON.stringify(values, null, 2)}\n` : envExports(values, options.promotion !== undefined));
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
  const pid = readInstance(paths)?.pid;
  if (pid !== undefined && isAlive(pid)) {
    throw new CliError(`[emulator] process ${pid} holds data folder ${paths.dir} but does not answer; stop it (kill ${pid}), then run \`${CLI} clock reset${dataFlag(paths.dir)}\` again`);
  }
  if (!existsSync(paths.database)) throw new CliError(`[emulator] no emulator data in ${paths.dir}; nothing to reset`);
  const [{ openDb }, { resetSavedClock }] = await Promise.all([import('../store/db.js'), import('../store/saved-clock.js')]);
  const db = openDb(paths.database);
  try {
    resetSavedClock(db);
  } finally {
    db.close();
  }
  say(`[emulator] clock follows system time again in ${paths.dir} (no emulator is running; \`${CLI} start${dataFlag(paths.dir)}\` starts one)`);
}

/** A value the clock cannot read is a usage error (exit 2), answered with the accepted forms. */
async function clockBody(action: ClockAction, value: string | undefined): Promise<object> {
  if (action === 'advance') {
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
