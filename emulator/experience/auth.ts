/**
 * Who calls the experience API: the agency key and the session a request names, each looked up
 * once and carried with the request (res.locals), so that authentication, an armed fault and the
 * call's record (control/recorder.ts) read the same ones; and each within its §8 rate limit.
 * @see spec §5 (experience) rules 1 to 3, §8
 */
import type { Request, Response } from 'express';
import { expired } from '../domain/limits.js';
import { SlidingWindowLimiter } from '../domain/rate-limit.js';
import type { Context } from '../context.js';
import { type Answer, answerOf } from '../fast-path/json.js';
import { bearerOf } from '../http.js';
import { type AgencyKey, findKeyBySecret } from '../store/keys.js';
import { type Session, findSessionByToken } from '../store/sessions.js';
import { isRefused } from '../wire-contract.js';
import { ApiError } from './errors.js';

/** What a request carries of its caller. */
export interface CallerLocals {
  /** The key the request authenticated with. */
  key?: AgencyKey;
  /** The session it authenticated with. */
  session?: Session;
  /** The key and session its headers name, valid or not, once looked up (null: none). */
  namedKey?: AgencyKey | null;
  namedSession?: Session | null;
}

/** The answer of POST /sessions: it carries the session it opened, for the call's record. */
export interface SessionAnswer extends Answer {
  readonly session: Session;
}

/** The session a call belongs to: the one it authenticated with, or the one its answer opened. */
export function sessionOfCall(res: Response): Session | undefined {
  return (res.locals as CallerLocals).session ?? (answerOf(res) as Partial<SessionAnswer> | undefined)?.session;
}

/** The key the Authorization header names, valid or not. */
export function namedKey(ctx: Context, req: Request, res: Response): AgencyKey | undefined {
  const locals = res.locals as CallerLocals;
  if (locals.namedKey === undefined) {
    const secret = bearerOf(req.get('authorization'));
    locals.namedKey = (secret && findKeyBySecret(ctx.db, secret)) || null;
  }
  return locals.namedKey ?? undefined;
}

/** The session the X-Service-Session header names, valid or not. */
export function namedSession(ctx: Context, req: Request, res: Response): Session | undefined {
  const locals = res.locals as CallerLocals;
  if (locals.namedSession === undefined) {
    const token = req.get('x-service-session');
    locals.namedSession = (token && findSessionByToken(ctx.db, token)) || null;
  }
  return locals.namedSession ?? undefined;
}

/** The request's valid key, authenticated once. */
export function authenticateKey(ctx: Context, req: Request, res: Response): AgencyKey {
  const locals = res.locals as CallerLocals;
  if (locals.key) return locals.key;
  if (!bearerOf(req.get('authorization'))) throw new ApiError('invalid_key', { message: 'Send the agency key as "Authorization: Bearer <AGENCY_KEY>".' });
  const key = namedKey(ctx, req, res);
  if (!key) throw new ApiError('invalid_key');
  if (key.revoked_at !== null) throw new ApiError('key_revoked');
  if (expired(key.expires_at, ctx.clock.now())) throw new ApiError('key_expired');
  return (locals.key = key);
}

/** A session is valid for its lifetime (domain/limits.ts) and only with the key that exchanged it. @see spec §5 rule 2, §4.1 rule 3 */
function authenticateSession(ctx: Context, req: Request, res: Response, key: AgencyKey): Session {
  if (!req.get('x-service-session')) throw new ApiError('invalid_session', { message: 'Send the session token in the X-Service-Session header. Ask the customer to rescan.' });
  const session = namedSession(ctx, req, res);
  if (!session || session.key_id !== key.id || session.revoked_at !== null || expired(session.expires_at, ctx.clock.now())) {
    throw new ApiError('invalid_session');
  }
  return ((res.locals as CallerLocals).session = session);
}

/**
 * The caller of a route: authenticated, then within its §8 rate limit (decisions/004), the key's and
 * then the session's. The windows last as long as the router, until `resetLimits`.
 */
export function callerGate(ctx: Context) {
  const { perKey: keyLimit, perSession: sessionLimit, windowMs } = ctx.config.limits;
  let perKey = new SlidingWindowLimiter(keyLimit, windowMs);
  let perSession = new SlidingWindowLimiter(sessionLimit, windowMs);
  const within = (limiter: SlidingWindowLimiter, id: string) => {
    const taken = limiter.take(id, ctx.clock.now());
    if (isRefused(taken)) throw new ApiError('rate_limited', { headers: { 'Retry-After': String(taken.refused.retryAfterSeconds) } });
  };
  const key = (req: Request, res: Response): AgencyKey => {
    const found = authenticateKey(ctx, req, res);
    within(perKey, `key:${found.id}`);
    return found;
  };
  return {
    key,
    /** The key, then the session it exchanged. */
    session(req: Request, res: Response): Session {
      const found = authenticateSession(ctx, req, res, key(req, res));
      within(perSession, `session:${found.id}`);
      return found;
    },
    resetLimits(): void {
      perKey = new SlidingWindowLimiter(keyLimit, windowMs);
      perSession = new SlidingWindowLimiter(sessionLimit, windowMs);
    },
  };
}
