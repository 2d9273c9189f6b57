/**
 * What the control plane holds between calls: armed faults, observed calls and terms edits. One
 * state per emulator, keyed by its database (app.ts hands the control routers copies of the
 * context, with the same database).
 */
import type { Context } from '../context.js';
import type { Fault } from './faults.js';
import type { StoredCall } from './observations.js';
import type { OriginalTerms } from './world-edits.js';

export const CALLS_KEPT = 5000;

export interface PlaneState {
  /** Off until a tool reads the observed calls or arms a fault. */
  observing: boolean;
  faults: Fault[];
  nextId: number;
  seq: number;
  calls: StoredCall[];
  originalTerms: OriginalTerms;
}

const states = new WeakMap<Context['db'], PlaneState>();

export function stateOf(ctx: Context): PlaneState {
  let state = states.get(ctx.db);
  if (!state) {
    state = { observing: false, faults: [], nextId: 1, seq: 0, calls: [], originalTerms: new Map() };
    states.set(ctx.db, state);
  }
  return state;
}

/** Keeps a completed call, numbered, dropping the oldest beyond `CALLS_KEPT`. */
export function keepCall(state: PlaneState, call: StoredCall): void {
  call.seq = state.seq += 1;
  state.calls.push(call);
  if (state.calls.length > CALLS_KEPT) state.calls.shift();
}

/**
 * `POST /_emulator/reset`: the observed calls, armed faults and terms edits belong to the old
 * world, whose pack codes the new one hands out again, so they go with it. Sequence numbers go
 * on counting, so a reader's `after` never skips the new world's calls.
 */
export function resetObservations(ctx: Context): void {
  const state = stateOf(ctx);
  state.faults = [];
  state.calls = [];
  state.originalTerms.clear();
}
