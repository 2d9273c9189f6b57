/**
 * The control plane's state, kept in memory between calls: what the test tools set on a running app
 * (the armed faults, the observed calls, the terms edits to undo). One per app, made by app.ts and
 * handed to the call recorder and the control plane's rows. Data the control plane's use cases act
 * on, as the others act on the store: so it sits beside them, below the rows and the recorder.
 */
import type { Context } from '../../context.js';
import type { Fixture } from '../../fixture.js';
import type { ObservedCall } from '../../wire-contract.js';
import type { Fault } from './fault-spec.js';
import type { OriginalTerms } from './world-edits.js';

export const CALLS_KEPT = 5000;

/** An observed call as kept: the pack may still be a unit id to look up, or to be found from the code's hash. */
export type StoredCall = ObservedCall & { unit?: number | null };

export interface ControlState {
  /** Off until a tool reads the observed calls or arms a fault. */
  observing: boolean;
  faults: Fault[];
  nextId: number;
  seq: number;
  calls: StoredCall[];
  originalTerms: OriginalTerms;
}

/** What the control plane's rows and use cases are handed: the world, this app's control state, and a reset of the rate limits. */
export type ControlContext = Context & { fixture: Fixture; controlState: ControlState; resetLimits(): void };

export function createControlState(): ControlState {
  return { observing: false, faults: [], nextId: 1, seq: 0, calls: [], originalTerms: new Map() };
}

/** Keeps a completed call, numbered, dropping the oldest beyond `CALLS_KEPT`. */
export function keepCall(controlState: ControlState, call: StoredCall): void {
  call.seq = controlState.seq += 1;
  controlState.calls.push(call);
  if (controlState.calls.length > CALLS_KEPT) controlState.calls.shift();
}

/**
 * On a reset (reset.ts) the observed calls, armed faults and terms edits belong to the old world,
 * whose pack codes the new one hands out again, so they go with it. Sequence numbers go on
 * counting, so a reader's `after` never skips the new world's calls.
 */
export function resetObservations(controlState: ControlState): void {
  controlState.faults = [];
  controlState.calls = [];
  controlState.originalTerms.clear();
}
