/**
 * Records every experience call once, when its answer is sent or its
 * connection is gone: a row of the interaction log (store/interactions.ts) for every answered
 * call, and, while a tool observes, the observed call the harness reads (observations.ts). Both
 * take the key and session the request carried (experience/auth.ts), never looked up again.
 * First on the experience API's path (app.ts); hands a call to the armed faults (faults.ts).
 */
import type { RequestHandler, Response } from 'express';
import type { Context } from '../context.js';
import { type CallerLocals, sessionOfCall } from '../experience/auth.js';
import type { ErrorCodeLocals } from '../errors.js';
import { recordInteraction } from '../store/interaction-rows.js';
import { whenClosed } from '../fast-path/when-closed.js';
import { applyFaults } from './faults.js';
import { arriving, complete } from './observations.js';
import { type ControlState, type StoredCall, keepCall } from '../use-cases/control/state.js';

/** Where a request's observed call waits for its answer. */
const CALL = Symbol('observed call');
type RecordedLocals = CallerLocals & ErrorCodeLocals & { [CALL]?: StoredCall };

export function recordCalls(ctx: Context, controlState: ControlState): RequestHandler {
  const watch = whenClosed((res) => {
    const call = (res.locals as RecordedLocals)[CALL];
    if (res.writableFinished) recordInteraction(ctx.db, interactionOf(ctx, res, call));
    if (!call) return;
    complete(call, res);
    keepCall(controlState, call);
  });

  return (req, res, next) => {
    watch(res);
    if (!controlState.observing) return next();
    const call = arriving(req);
    (res.locals as RecordedLocals)[CALL] = call;
    if (controlState.faults.length === 0) return next();
    applyFaults(ctx, controlState.faults, call, req, res, next);
  };
}

/** The interaction log's row: a call a fault answered is recorded as the fault and the key and session it matched on. */
function interactionOf(ctx: Context, res: Response, call: StoredCall | undefined) {
  const { req } = res;
  const locals = res.locals as RecordedLocals;
  const faulted = call?.fault !== undefined;
  return {
    at: ctx.clock.now(),
    key_id: faulted ? call.key_id : (locals.key?.id ?? null),
    session_id: faulted ? call.session_id : (sessionOfCall(res)?.id ?? null),
    method: req.method, path: req.baseUrl + req.path, status: res.statusCode, error: locals.errorCode ?? null,
    body: faulted ? { injected_fault: call.fault } : (req.body ?? null),
  };
}
