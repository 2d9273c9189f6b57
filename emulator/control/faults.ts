/**
 * Fault injection: the harness arms faults with `POST /_emulator/faults` (use-cases/control/faults.ts),
 * and the next matching experience calls answer with an error (a 429 with Retry-After, a 401, an
 * unavailable 410...) or lose their connection. The call recorder (recorder.ts) hands each call to
 * `applyFaults` while faults are armed.
 */
import type { NextFunction, Request, Response } from 'express';
import type { Context } from '../context.js';
import { hashSecret } from '../domain/secrets.js';
import { type ErrorTable, HttpError, writeError } from '../errors.js';
import { namedKey, namedSession } from '../experience/auth.js';
import { EXPERIENCE_ERRORS, type ErrorCode } from '../experience/errors.js';
import { jsonBody } from '../http.js';
import { unitOfAuthCode } from '../store/codes.js';
import { packCodeOfUnit } from '../store/units.js';
import type { Fault } from '../use-cases/control/fault-spec.js';
import type { StoredCall } from '../use-cases/control/state.js';

const EXPERIENCE_PREFIX = '/api/experience/v1';

/** Who a call is for, as a fault matches on it and an observed call records it. */
export interface Subject {
  environment: 'sandbox' | 'production' | null;
  keyId: number | null;
  sessionId: number | null;
  pack: string | null;
  scenario: string | null;
}

/** Answers a call as the first fault armed for it and matching it says, else hands it on; the call's record notes the fault and the subject it matched on. */
export function applyFaults(ctx: Context, faults: Fault[], call: StoredCall, req: Request, res: Response, next: NextFunction): void {
  const armed = faults.filter((fault) => fault.hits < fault.times && pathOf(fault.path) === req.path && (!fault.method || fault.method === req.method));
  if (armed.length === 0) return next();
  const decide = () => {
    const subject = subjectOf(ctx, req, res);
    Object.assign(call, { environment: subject.environment, key_id: subject.keyId, session_id: subject.sessionId, pack: subject.pack, scenario: subject.scenario });
    const fault = armed.find((candidate) => matches(candidate, subject));
    if (!fault) return next();
    fault.hits += 1;
    call.fault = fault.id;
    if (fault.drop) return void req.socket.destroy();
    writeError(res, injectedError(fault));
  };
  // Matching a pack on an exchange needs its code, from the body.
  const needsBody = armed.some((fault) => fault.match?.pack) && req.method === 'POST' && req.path === '/sessions';
  if (!needsBody) return decide();
  jsonBody(req, res, (error?: unknown) => (error ? next(error) : decide()));
}

function pathOf(path: string): string {
  return path.startsWith(EXPERIENCE_PREFIX) ? path.slice(EXPERIENCE_PREFIX.length) || '/' : path;
}

function matches(fault: Fault, subject: Subject): boolean {
  const { match } = fault;
  if (!match) return true;
  if (match.environment && match.environment !== subject.environment) return false;
  if (match.pack && match.pack !== subject.pack) return false;
  if (match.scenario && match.scenario !== subject.scenario) return false;
  return true;
}

/** Key, session, pack and scenario of a call: the key and session its headers name (experience/auth.ts), valid or not. */
function subjectOf(ctx: Context, req: Request, res: Response): Subject {
  const key = namedKey(ctx, req, res);
  const session = namedSession(ctx, req, res);
  const code = (req.body as { authorization_code?: unknown } | undefined)?.authorization_code;
  const unitId = session?.unit_id ?? (typeof code === 'string' ? unitOfAuthCode(ctx.db, hashSecret(code)) : null);
  return {
    environment: key?.environment ?? null, keyId: key?.id ?? null, sessionId: session?.id ?? null,
    pack: unitId === null ? null : packCodeOfUnit(ctx.db, unitId), scenario: session?.scenario ?? null,
  };
}

/** The error a fault answers with: the experience API's own shape, with Retry-After on a 429. */
function injectedError(fault: Fault): HttpError {
  const code: string = fault.error ?? codeForStatus(fault.status!);
  const known = (EXPERIENCE_ERRORS as ErrorTable)[code];
  const status = fault.status ?? known?.status ?? 500;
  const retryAfter = fault.retry_after ?? (status === 429 ? 1 : undefined);
  // Any status and code the harness armed, not only the table's: the one place an HttpError is built by hand.
  return new HttpError(code, status, fault.message ?? known?.message ?? 'Injected fault.', undefined, retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) });
}

function codeForStatus(status: number): ErrorCode {
  const byStatus: Record<number, ErrorCode> = { 400: 'invalid_request', 401: 'invalid_session', 403: 'ineligible', 409: 'unavailable', 410: 'unavailable', 422: 'consent_required', 429: 'rate_limited' };
  return byStatus[status] ?? 'internal_error';
}
