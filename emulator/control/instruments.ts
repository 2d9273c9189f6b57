/**
 * The instruments the test tools set on a running app through the control plane, kept in memory
 * between calls: the armed faults, the observed calls and the terms edits to undo. One set per
 * app, made by app.ts and handed to the call recorder and the control routers.
 */
import type { Context } from '../context.js';
import type { Fixture } from '../fixture.js';
import type { Fault } from './faults.js';
import type { StoredCall } from './observations.js';
import type { OriginalTerms } from './world-edits.js';

export const CALLS_KEPT = 5000;

export interface Instruments {
  /** Off until a tool reads the observed calls or arms a fault. */
  observing: boolean;
  faults: Fault[];
  nextId: number;
  seq: number;
  calls: StoredCall[];
  originalTerms: OriginalTerms;
}

/** What the control plane's routers are handed: the world, this app's instruments, and a reset of the rate limits. */
export type ControlContext = Context & { fixture: Fixture; instruments: Instruments; resetLimits(): void };

export function createInstruments(): Instruments {
  return { observing: false, faults: [], nextId: 1, seq: 0, calls: [], originalTerms: new Map() };
}

/** Keeps a completed call, numbered, dropping the oldest beyond `CALLS_KEPT`. */
export function keepCall(instruments: Instruments, call: StoredCall): void {
  call.seq = instruments.seq += 1;
  instruments.calls.push(call);
  if (instruments.calls.length > CALLS_KEPT) instruments.calls.shift();
}

/**
 * `POST /_emulator/reset`: the observed calls, armed faults and terms edits belong to the old
 * world, whose pack codes the new one hands out again, so they go with it. Sequence numbers go
 * on counting, so a reader's `after` never skips the new world's calls.
 */
export function resetObservations(instruments: Instruments): void {
  instruments.faults = [];
  instruments.calls = [];
  instruments.originalTerms.clear();
}
