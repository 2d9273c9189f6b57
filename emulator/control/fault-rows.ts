/** The control plane's rows `/faults` (arm, list, clear) and `/observed` (reading it starts the observing); their use cases in use-cases/control/. */
import { type EndpointTable, anyone, noInput } from '../endpoints.js';
import { z } from 'zod';
import { WholeText, validate } from '../validation.js';
import { wallClock } from './observations.js';
import { FaultSpec } from '../use-cases/control/fault-spec.js';
import { armFault, clearFaults, listFaults } from '../use-cases/control/faults.js';
import { observedCalls } from '../use-cases/control/observed.js';
import { CALLS_KEPT, type ControlContext } from '../use-cases/control/state.js';

export const FaultBody = z.strictObject({ next: FaultSpec });

const CallsQuery = z.strictObject({
  after: WholeText(0, Number.MAX_SAFE_INTEGER).default(0),
  pack: z.string().max(64).optional(),
  limit: WholeText(1, CALLS_KEPT).default(1000),
});

export function faultRows(endpoint: EndpointTable<ControlContext>): void {
  endpoint({
    method: 'get', path: '/faults', caller: anyone,
    input: noInput,
    run: (on) => listFaults(on.controlState),
    answer: (data) => ({ status: 200, body: { data } }),
  });
  endpoint({
    method: 'post', path: '/faults', caller: anyone,
    input: (req) => validate(FaultBody, req.body, { hint: 'Send {"next": {"path": "/session/entry", "status": 429, "retry_after": 3, "times": 1}}.' }).next,
    run: (on, _caller, next) => armFault(on.controlState, next),
    answer: (fault) => ({ status: 201, body: fault }),
  });
  endpoint({
    method: 'post', path: '/faults/clear', caller: anyone,
    input: noInput,
    run: (on) => clearFaults(on, on.controlState),
    answer: ({ cleared, termsRestored }) => ({ status: 200, body: { cleared, terms_restored: termsRestored } }),
  });
  endpoint({
    method: 'get', path: '/observed', caller: anyone,
    input: (req) => validate(CallsQuery, req.query, { hint: 'after and limit are whole numbers; pack is a pack code.' }),
    run: (on, _caller, query) => observedCalls(on, on.controlState, query),
    answer: ({ last, calls }) => ({ status: 200, body: { now: wallClock(), last, data: calls } }),
  });
}
