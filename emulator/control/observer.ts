/**
 * The hook in front of the experience router (app.ts): observes every call (observations.ts) and
 * applies armed faults (faults.ts). Observing starts when a tool first reads the observed calls or
 * arms a fault; until then the hook is one test of a flag.
 */
import type { RequestHandler, Response } from 'express';
import type { Context } from '../context.js';
import type { CallerLocals } from '../experience/routes.js';
import { jsonBody } from '../http.js';
import { answerWithFault, armedFor, matches, needsBody } from './faults.js';
import { type StoredCall, arriving, complete, subjectOf, summarize } from './observations.js';
import { type PlaneState, keepCall } from './plane-state.js';

/** Where a request's call record waits for its answer. */
const CALL = Symbol('observed call');
type ObservingLocals = CallerLocals & { [CALL]?: StoredCall };

export function observeAndFault(ctx: Context, state: PlaneState): RequestHandler {
  // One json wrapper and one close listener per app, not per request: each finds its call in res.locals.
  function json(this: Response, body: unknown): Response {
    const call = (this.locals as ObservingLocals)[CALL];
    if (call) call.answer = summarize(body);
    return (Object.getPrototypeOf(this) as Response).json.call(this, body);
  }
  function closed(this: Response): void {
    const call = (this.locals as ObservingLocals)[CALL];
    if (!call) return;
    complete(call, this);
    keepCall(state, call);
  }

  return (req, res, next) => {
    if (!state.observing) return next();
    const call = arriving(req);
    (res.locals as ObservingLocals)[CALL] = call;
    res.json = json;
    // 'close' follows the answer, or a connection lost before it.
    res.once('close', closed);
    if (state.faults.length === 0) return next();

    const armed = armedFor(state.faults, req);
    if (armed.length === 0) return next();
    const decide = () => {
      const subject = subjectOf(ctx, req);
      Object.assign(call, { environment: subject.environment, key_id: subject.keyId, session_id: subject.sessionId, pack: subject.pack, scenario: subject.scenario });
      const fault = armed.find((candidate) => matches(candidate, subject));
      if (!fault) return next();
      fault.hits += 1;
      call.fault = fault.id;
      if (fault.drop) return req.socket.destroy();
      answerWithFault(ctx, req, res, fault, subject);
    };
    if (!needsBody(armed, req)) return decide();
    jsonBody(req, res, (error?: unknown) => (error ? next(error) : decide()));
  };
}
