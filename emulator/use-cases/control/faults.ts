/**
 * The faults a tool arms on the experience calls (`/_emulator/faults`): listed, armed (which starts
 * the observing: a fault is noted on the call it answers) and cleared, which also puts back the
 * terms edited since (world-edits.ts).
 */
import type { Context } from '../../context.js';
import type { Fault } from './fault-spec.js';
import type { ControlState } from './state.js';
import { restoreTerms } from './world-edits.js';

export function listFaults(controlState: ControlState): Fault[] {
  return controlState.faults;
}

/** The fault armed, numbered after the last one, with no hits yet. */
export function armFault(controlState: ControlState, spec: Omit<Fault, 'id' | 'hits'>): Fault {
  const fault: Fault = { ...spec, id: controlState.nextId++, hits: 0 };
  controlState.faults.push(fault);
  controlState.observing = true;
  return fault;
}

/** Every fault disarmed and every edited terms put back: how many faults, and which terms. */
export function clearFaults(ctx: Context, controlState: ControlState): { cleared: number; termsRestored: string[] } {
  const cleared = controlState.faults.length;
  controlState.faults = [];
  return { cleared, termsRestored: restoreTerms(ctx, controlState.originalTerms) };
}
