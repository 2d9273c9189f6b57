/** The virtual clock moved by a tool (`POST /_emulator/clock`, `emulator clock`): advanced, frozen, unfrozen or back to the system time. */
import { type Clock, ClockRangeError, parseDuration } from '../../clock.js';
import type { Context } from '../../context.js';
import { type Refused, refused } from '../../wire-contract.js';

/** One move: a duration such as `31m` (checked by the caller), a freeze now (`true`) or at an ISO time, an unfreeze, or a reset. */
export type ClockMove = { advance: string } | { freeze: true | string } | { unfreeze: true } | { reset: true };

/** The clock moved as asked; refused, unmoved, when the move would take it out of its range. */
export function moveClock(ctx: Context, move: ClockMove): ReturnType<Clock['state']> | Refused<ClockRangeError> {
  try {
    if ('advance' in move) ctx.clock.advance(parseDuration(move.advance)!);
    else if ('freeze' in move) ctx.clock.freeze(move.freeze === true ? undefined : Date.parse(move.freeze));
    else if ('unfreeze' in move) ctx.clock.unfreeze();
    else ctx.clock.reset();
  } catch (error) {
    if (!(error instanceof ClockRangeError)) throw error;
    return refused(error);
  }
  return ctx.clock.state();
}
