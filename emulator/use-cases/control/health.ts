/** The emulator's health (`GET /_emulator/health`): whether its database reads, and, when it does, its base URL and clock. */
import type { Clock } from '../../clock.js';
import type { Context } from '../../context.js';
import { databaseProblem } from '../../store/health.js';

export type Health = { problem: string } | { baseUrl: string; clock: ReturnType<Clock['state']> | { mode: 'unreadable' } };

export function health(ctx: Context): Health {
  const problem = databaseProblem(ctx.db);
  return problem ? { problem } : { baseUrl: ctx.config.baseUrl, clock: clockForHealth(ctx.clock) };
}

/** Health answers whatever the clock shows: a clock that cannot be read is reported, not a failure. */
function clockForHealth(clock: Clock): ReturnType<Clock['state']> | { mode: 'unreadable' } {
  try {
    return clock.state();
  } catch {
    return { mode: 'unreadable' };
  }
}
