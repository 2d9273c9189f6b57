/**
 * The virtual clock kept with the data (`meta.clock`): restored when a world opens, saved on every
 * change. A saved clock outside `CLOCK_RANGE`, or not a clock at all, stops the world from opening
 * with a `SavedClockError`, which the CLI turns into one line saying how to repair it.
 */
import { z } from 'zod';
import { type Clock, ClockRangeError, type ClockState, createClock } from '../clock.js';
import { type Db, getMeta, setMeta } from './db.js';

const SavedState = z.object({
  mode: z.enum(['real', 'frozen', 'offset']),
  frozenAt: z.number().optional(),
  offsetMs: z.number().optional(),
});

/** Its message completes "the virtual clock saved in <folder> …". */
export class SavedClockError extends Error {}

/** The clock of this world: `requested` (tests, benchmarks) or the saved one, saved again on every change. */
export function restoreClock(db: Db, requested: ClockState | undefined): Clock {
  const clock = requested ? createClock(requested) : savedClock(db);
  clock.onChange((state) => setMeta(db, 'clock', JSON.stringify(state)));
  return clock;
}

function savedClock(db: Db): Clock {
  const saved = getMeta(db, 'clock');
  if (saved === undefined) return createClock();
  let state: ClockState;
  try {
    state = SavedState.parse(JSON.parse(saved));
  } catch {
    throw new SavedClockError(`is not a clock (${saved.slice(0, 80)})`);
  }
  try {
    return createClock(state);
  } catch (error) {
    if (error instanceof ClockRangeError) throw new SavedClockError(`is out of range (it ${error.message})`);
    throw error;
  }
}

/** Back to the system time, for a data folder no emulator serves (`emulator clock reset`). */
export function resetSavedClock(db: Db): void {
  setMeta(db, 'clock', JSON.stringify({ mode: 'real' } satisfies ClockState));
}
