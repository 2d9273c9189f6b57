/**
 * Observation of experience calls for the harness: each call with the
 * wall-clock time it arrived, the pack or sandbox scenario it belongs to, its body (the
 * authorization code only as its SHA-256, the code verifier only as a verdict on its format and
 * its S256) and a summary of the answer. Wall-clock, not the virtual clock: agencies poll and
 * back off in real time.
 */
import type { Request, Response } from 'express';
import { s256 } from '../domain/pkce.js';
import { hashSecret } from '../domain/secrets.js';
import { type CallerLocals, sessionOfCall } from '../experience/auth.js';
import { answerOf } from '../fast-path/json.js';
import type { CallAnswer } from '../wire-contract.js';
import type { StoredCall } from '../use-cases/control/state.js';

/** Observations are stamped on the wall clock, not the virtual one: agencies poll and back off in real time. */
export const wallClock = () => performance.timeOrigin + performance.now();

/** RFC 3986 §2.3 unreserved characters; the length rule (43 to 128) is the harness's to judge. */
const UNRESERVED = /^[A-Za-z0-9._~-]*$/;

export function arriving(req: Request): StoredCall {
  return { seq: 0, at: wallClock(), method: req.method, path: req.path, environment: null, key_id: null, session_id: null, pack: null, scenario: null, status: 0, body: null };
}

/** Completes a call's record once it is answered or its connection is gone: the key and session it carried, its body and its answer; the pack is looked up when read. */
export function complete(call: StoredCall, res: Response): void {
  const { key } = res.locals as CallerLocals;
  const session = sessionOfCall(res);
  const answer = answerOf(res);
  if (answer !== undefined) call.answer = summarize(answer.body);
  call.status = res.writableFinished ? res.statusCode : 0;
  if (!res.writableFinished) call.dropped = true;
  if (key) {
    call.environment = key.environment;
    call.key_id = key.id;
  }
  if (session) {
    call.session_id = session.id;
    call.scenario = session.scenario;
  }
  if (call.pack === null) call.unit = session?.unit_id ?? null;
  const body = res.req.body as unknown;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const { authorization_code: code, code_verifier: verifier, ...rest } = body as Record<string, unknown>;
    call.body = rest;
    if (typeof code === 'string') call.code_sha256 = hashSecret(code);
    if (typeof verifier === 'string') call.verifier = { length: verifier.length, unreserved: UNRESERVED.test(verifier), s256: s256(verifier) };
  }
}

function summarize(body: unknown): CallAnswer {
  if (!body || typeof body !== 'object') return {};
  const value = body as Record<string, any>;
  if (typeof value.error === 'string') return { error: value.error };
  return {
    session_created: typeof value.session_token === 'string',
    entry_state: value.entry?.state ?? null,
    prize: value.entry?.prize?.name ?? null,
    codes: value.entry?.codes ?? [],
    redemption_url: value.entry?.redemption_url ?? null,
    delivery_state: value.delivery?.state ?? null,
    terms_version: value.terms?.version ?? null,
    eligibility: value.eligibility?.reason ?? null,
  };
}
