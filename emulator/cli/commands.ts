/** `stop`, `status`, `env`, `reset` and `clock`: each finds the running emulator through its data folder. */
import { type ClockState, parseDuration } from '../clock.js';
import type { EnvValues } from '../control/env.js';
import { CliError } from './cli-error.js';
import { control, findRunning, isAlive, removeInstance, requireRunning, waitUntil } from './instance.js';
import { dataFlag, dataPaths } from './paths.js';
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
  say('[emulator] reset: the world is seeded from the fixture again; entries, sessions and scans are gone');
}

export type ClockAction = 'advance' | 'freeze' | 'unfreeze';

/** Without an action, shows the clock; `advance 31m`, `freeze [ISO time]`, `unfreeze` move it. */
export async function clock(data: string, action: ClockAction | undefined, value: string | undefined): Promise<void> {
  const body = action && clockBody(action, value);
  const instance = await requireRunning(dataPaths(data));
  const state = (body ? await control(instance, 'POST', '/clock', body) : await control(instance, 'GET', '/clock')) as Required<ClockState> & { now: string };
  say(clockLine(state));
}

function clockBody(action: ClockAction, value: string | undefined): object {
  if (action === 'advance') {
    if (!value || parseDuration(value) === undefined) throw new CliError(`[emulator] ${value ? `${value} is not a duration` : 'say how far'}: e.g. \`${CLI} clock advance 31m\` (units ms, s, m, h, d; 1h30m works)`);
    return { advance: value };
  }
  if (action === 'freeze') return { freeze: value ?? true };
  return { unfreeze: true };
}
