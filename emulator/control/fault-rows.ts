/** The control plane's rows `/faults` (arm, list, clear) and `/observed` (reading it starts the observing). */
import { type EndpointTable, anyone, noInput } from '../endpoints.js';
import { z } from 'zod';
import type { Context } from '../context.js';
import { WholeText, validate } from '../validation.js';
import { type Fault, FaultBody } from './faults.js';
import { resolvePacks, wallClock } from './observations.js';
import { CALLS_KEPT, type ControlState } from './state.js';
import { restoreTerms } from '../use-cases/control/world-edits.js';

const CallsQuery = z.strictObject({
  after: WholeText(0, Number.MAX_SAFE_INTEGER).default(0),
  pack: z.string().max(64).optional(),
  limit: WholeText(1, CALLS_KEPT).default(1000),
});

export function faultRows(endpoint: EndpointTable<Context>, controlState: ControlState): void {
  endpoint({
    method: 'get', path: '/faults', caller: anyone,
    input: noInput,
    run: () => controlState.faults,
    answer: (data) => ({ status: 200, body: { data } }),
  });
  endpoint({
    method: 'post', path: '/faults', caller: anyone,
    input: (req) => validate(FaultBody, req.body, { hint: 'Send {"next": {"path": "/session/entry", "status": 429, "retry_after": 3, "times": 1}}.' }).next,
    run: (_ctx, _caller, next) => {
      const fault: Fault = { ...next, id: controlState.nextId++, hits: 0 };
      controlState.faults.push(fault);
      controlState.observing = true;
      return fault;
    },
    answer: (fault) => ({ status: 201, body: fault }),
  });
  endpoint({
    method: 'post', path: '/faults/clear', caller: anyone,
    input: noInput,
    run: (ctx) => {
      const cleared = controlState.faults.length;
      controlState.faults = [];
      return { cleared, terms_restored: restoreTerms(ctx, controlState.originalTerms) };
    },
    answer: (body) => ({ status: 200, body }),
  });
  endpoint({
    method: 'get', path: '/observed', caller: anyone,
    input: (req) => validate(CallsQuery, req.query, { hint: 'after and limit are whole numbers; pack is a pack code.' }),
    run: (ctx, _caller, { after, pack, limit }) => {
      controlState.observing = true;
      resolvePacks(ctx, controlState.calls);
      return controlState.calls.filter((call) => call.seq > after && (!pack || call.pack === pack)).slice(0, limit);
    },
    answer: (data) => ({ status: 200, body: { now: wallClock(), last: controlState.seq, data } }),
  });
}
