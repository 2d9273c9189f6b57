/**
 * Fault injection and observation for the harness (DESIGN.md, control plane). Two pieces:
 *
 * - `experienceFaults(ctx)`, in front of the experience router: answers the next matching calls
 *   with an error (a 429 with Retry-After, a 401, an unavailable 410...) or drops the connection,
 *   and observes every call with the wall-clock time it arrived, the pack or sandbox scenario it
 *   belongs to, its body (the authorization code only as its SHA-256, the code verifier only as a
 *   verdict on its format and its S256) and a summary of the answer. Wall-clock, not the virtual
 *   clock: agencies poll and back off in real time. Observing starts when a tool first reads the
 *   observed calls or arms a fault; until then the hook is one test of a flag.
 * - `faultsRouter(ctx)` under `/_emulator`: arm and clear faults and read the observed calls; with
 *   world-edits.ts (terms edited mid-journey, a delivery settled now, the unentered packs) and
 *   secrets.ts (the values the emulator issued). The control guard in app.ts protects all of it.
 *
 * One state per emulator, keyed by its database (app.ts hands the control router a copy of the
 * context, with the same database): `resetObservations` clears it when the world is reset.
 */
import { type Request, type RequestHandler, type Response, Router } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { s256 } from '../domain/pkce.js';
import { hashSecret } from '../domain/secrets.js';
import { bearerOf } from '../experience/auth.js';
import { type ErrorTable, HttpError, writeError } from '../errors.js';
import { jsonBody } from '../http.js';
import { EXPERIENCE_ERRORS, type ErrorCode } from '../experience/errors.js';
import type { CallerLocals } from '../experience/routes.js';
import { SANDBOX_SCENARIOS } from '../experience/schemas.js';
import { recordInteraction } from '../store/interactions.js';
import { findKeyBySecret } from '../store/keys.js';
import { findSessionByToken } from '../store/sessions.js';
import { secretsRouter } from './secrets.js';
import { validate } from '../validation.js';
import { type OriginalTerms, restoreTerms, worldEditsRouter } from './world-edits.js';

const PREFIX = '/api/experience/v1';
const CALLS_KEPT = 5000;

const FaultSpec = z
  .strictObject({
    /** The endpoint, with or without the /api/experience/v1 prefix, e.g. "/session/entry". */
    path: z.string().min(1).max(200),
    method: z.enum(['GET', 'POST']).optional(),
    status: z.number().int().min(400).max(599).optional(),
    error: z.string().regex(/^[a-z_]{1,40}$/).optional(),
    message: z.string().max(500).optional(),
    retry_after: z.number().int().min(0).max(86_400).optional(),
    /** Destroy the connection instead of answering: a network interruption. */
    drop: z.literal(true).optional(),
    times: z.number().int().min(1).max(10_000).default(1),
    /** Only calls of this pack (production) or sandbox scenario, or of this key's environment. */
    match: z
      .strictObject({ pack: z.string().min(1).max(64).optional(), scenario: z.enum(SANDBOX_SCENARIOS).optional(), environment: z.enum(['sandbox', 'production']).optional() })
      .optional(),
  })
  .refine((spec) => spec.drop || spec.status !== undefined || spec.error !== undefined, 'give a status, an error code or "drop": true');

const FaultBody = z.strictObject({ next: FaultSpec });
const CallsQuery = z.strictObject({
  after: z.coerce.number().int().min(0).default(0),
  pack: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(CALLS_KEPT).default(1000),
});

type Fault = z.infer<typeof FaultSpec> & { id: number; hits: number };

/** Observations are stamped on the wall clock, not the virtual one: agencies poll and back off in real time. */
const wallClock = () => performance.timeOrigin + performance.now();

/** RFC 3986 §2.3 unreserved characters; the length rule (43 to 128) is the harness's to judge. */
const UNRESERVED = /^[A-Za-z0-9._~-]*$/;

/**
 * The code_verifier an exchange presented, judged when it arrives so that no verifier is kept: its
 * length, whether every character is unreserved, and its S256 (what the code_challenge must be).
 * @see spec §4.3 step 4, §5 rule 4, §8
 */
export interface VerifierVerdict {
  length: number;
  unreserved: boolean;
  s256: string;
}

/** One experience call as the harness reads it. */
export interface ObservedCall {
  seq: number;
  /** Wall-clock milliseconds when the call arrived. */
  at: number;
  method: string;
  /** Relative to /api/experience/v1, e.g. "/session/entry". */
  path: string;
  environment: 'sandbox' | 'production' | null;
  key_id: number | null;
  session_id: number | null;
  pack: string | null;
  scenario: string | null;
  status: number;
  fault?: number;
  dropped?: true;
  body: unknown;
  code_sha256?: string;
  verifier?: VerifierVerdict;
  answer?: CallAnswer;
}

/** As kept: the pack may still be a unit id to look up, or to be found from the code's hash. */
type StoredCall = ObservedCall & { unit?: number | null };

interface Subject {
  environment: 'sandbox' | 'production' | null;
  keyId: number | null;
  sessionId: number | null;
  pack: string | null;
  scenario: string | null;
}

interface FaultState {
  /** Off until a tool reads the observed calls or arms a fault. */
  observing: boolean;
  faults: Fault[];
  nextId: number;
  seq: number;
  calls: StoredCall[];
  originalTerms: OriginalTerms;
}

const states = new WeakMap<Context['db'], FaultState>();

function stateOf(ctx: Context): FaultState {
  let state = states.get(ctx.db);
  if (!state) {
    state = { observing: false, faults: [], nextId: 1, seq: 0, calls: [], originalTerms: new Map() };
    states.set(ctx.db, state);
  }
  return state;
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

/** Where a request's call record waits for its answer. */
const CALL = Symbol('observed call');
type ObservingLocals = CallerLocals & { [CALL]?: StoredCall };

/** The hook in front of the experience router: observes every call and applies armed faults. */
export function experienceFaults(ctx: Context): RequestHandler {
  const state = stateOf(ctx);
  // One json wrapper and one close listener per app, not per request: each finds its call in res.locals.
  function json(this: Response, body: unknown): Response {
    const call = (this.locals as ObservingLocals)[CALL];
    if (call) call.answer = summarize(body);
    return (Object.getPrototypeOf(this) as Response).json.call(this, body);
  }
  function closed(this: Response): void {
    const call = (this.locals as ObservingLocals)[CALL];
    if (call) observe(state, call, this);
  }

  return (req, res, next) => {
    if (!state.observing) return next();
    const call: StoredCall = {
      seq: 0, at: wallClock(), method: req.method, path: req.path, environment: null, key_id: null, session_id: null, pack: null, scenario: null, status: 0, body: null,
    };
    (res.locals as ObservingLocals)[CALL] = call;
    res.json = json;
    // 'close' follows the answer, or a connection lost before it.
    res.once('close', closed);
    if (state.faults.length === 0) return next();

    const armed = state.faults.filter((fault) => fault.hits < fault.times && pathOf(fault.path) === req.path && (!fault.method || fault.method === req.method));
    if (armed.length === 0) return next();
    const needsBody = armed.some((fault) => fault.match?.pack) && req.method === 'POST' && req.path === '/sessions';
    const decide = () => {
      const subject = subjectOf(ctx, req);
      Object.assign(call, { environment: subject.environment, key_id: subject.keyId, session_id: subject.sessionId, pack: subject.pack, scenario: subject.scenario });
      const fault = armed.find((candidate) => matches(candidate, subject));
      if (!fault) return next();
      fault.hits += 1;
      call.fault = fault.id;
      if (fault.drop) return req.socket.destroy();
      answer(ctx, req, res, fault, subject);
    };
    if (!needsBody) return decide();
    jsonBody(req, res, (error?: unknown) => (error ? next(error) : decide()));
  };
}

function pathOf(path: string): string {
  return path.startsWith(PREFIX) ? path.slice(PREFIX.length) || '/' : path;
}

function matches(fault: Fault, subject: Subject): boolean {
  const { match } = fault;
  if (!match) return true;
  if (match.environment && match.environment !== subject.environment) return false;
  if (match.pack && match.pack !== subject.pack) return false;
  if (match.scenario && match.scenario !== subject.scenario) return false;
  return true;
}

/** The error a fault answers with: the experience API's own shape, with Retry-After on a 429. */
function answer(ctx: Context, req: Request, res: Response, fault: Fault, subject: Subject): void {
  const code: string = fault.error ?? codeForStatus(fault.status!);
  const known = (EXPERIENCE_ERRORS as ErrorTable)[code];
  const status = fault.status ?? known?.status ?? 500;
  const retryAfter = fault.retry_after ?? (status === 429 ? 1 : undefined);
  // Any status and code the harness armed, not only the table's: the one place an HttpError is built by hand.
  const injected = new HttpError(code, status, fault.message ?? known?.message ?? 'Injected fault.', undefined, retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) });
  writeError(res, injected);
  recordInteraction(ctx.db, {
    at: ctx.clock.now(), key_id: subject.keyId, session_id: subject.sessionId, method: req.method, path: PREFIX + req.path, status, body: { injected_fault: fault.id },
  });
}

function codeForStatus(status: number): ErrorCode {
  const byStatus: Record<number, ErrorCode> = { 400: 'invalid_request', 401: 'invalid_session', 403: 'ineligible', 409: 'unavailable', 410: 'unavailable', 422: 'consent_required', 429: 'rate_limited' };
  return byStatus[status] ?? 'internal_error';
}

/** Key, session, pack and scenario of a call, read the way the experience router reads them. */
function subjectOf(ctx: Context, req: Request): Subject {
  const secret = bearerOf(req.get('authorization'));
  const key = secret ? findKeyBySecret(ctx.db, secret) : undefined;
  const token = req.get('x-service-session');
  const session = token ? findSessionByToken(ctx.db, token) : undefined;
  const code = (req.body as { authorization_code?: unknown } | undefined)?.authorization_code;
  const unitId = session?.unit_id ?? (typeof code === 'string' ? unitOfCode(ctx, hashSecret(code)) : null);
  return {
    environment: key?.environment ?? null, keyId: key?.id ?? null, sessionId: session?.id ?? null,
    pack: unitId === null ? null : packCode(ctx, unitId), scenario: session?.scenario ?? null,
  };
}

function unitOfCode(ctx: Context, codeHash: string): number | null {
  const row = ctx.db.prepare('SELECT unit_id FROM auth_codes WHERE code_hash = ?').get(codeHash) as { unit_id: number } | undefined;
  return row?.unit_id ?? null;
}

function packCode(ctx: Context, unitId: number): string | null {
  return (ctx.db.prepare('SELECT code FROM units WHERE id = ?').get(unitId) as { code: string } | undefined)?.code ?? null;
}

/** Completes a call's record once it is answered or its connection is gone; the pack is looked up when read. */
function observe(state: FaultState, call: StoredCall, res: Response): void {
  const { key, session } = res.locals as CallerLocals;
  call.seq = state.seq += 1;
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
  state.calls.push(call);
  if (state.calls.length > CALLS_KEPT) state.calls.shift();
}

/** What the harness needs of an answer; never the session token. */
export interface CallAnswer {
  error?: string;
  session_created?: boolean;
  entry_state?: string | null;
  codes?: string[];
  redemption_url?: string | null;
  delivery_state?: string | null;
  terms_version?: string | null;
  eligibility?: string | null;
  prize?: string | null;
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

/** `/_emulator/faults` and `/observed` (reading it starts the observing), with world-edits.ts's `/terms`, `/deliveries/settle`, `/packs`, and `/secrets`. */
export function faultsRouter(ctx: Context): Router {
  const state = stateOf(ctx);
  const router = Router();
  router.use(['/faults', '/terms', '/deliveries', '/observed', '/packs', '/secrets'], jsonBody);

  router.get('/faults', (_req, res) => res.json({ data: state.faults }));
  router.post('/faults', (req, res) => {
    const { next } = validate(FaultBody, req.body, { hint: 'Send {"next": {"path": "/session/entry", "status": 429, "retry_after": 3, "times": 1}}.' });
    const fault: Fault = { ...next, id: state.nextId++, hits: 0 };
    state.faults.push(fault);
    state.observing = true;
    res.status(201).json(fault);
  });
  router.post('/faults/clear', (_req, res) => {
    const cleared = state.faults.length;
    state.faults = [];
    res.json({ cleared, terms_restored: restoreTerms(ctx, state.originalTerms) });
  });

  router.get('/observed', (req, res) => {
    const { after, pack, limit } = validate(CallsQuery, req.query, { hint: 'after and limit are whole numbers; pack is a pack code.' });
    state.observing = true;
    for (const call of state.calls) {
      if (call.unit === undefined) continue;
      const unit = call.unit ?? (call.code_sha256 ? unitOfCode(ctx, call.code_sha256) : null);
      call.pack = unit === null ? null : packCode(ctx, unit);
      call.unit = undefined;
    }
    const data = state.calls.filter((call) => call.seq > after && (!pack || call.pack === pack)).slice(0, limit);
    res.json({ now: wallClock(), last: state.seq, data });
  });

  router.use(worldEditsRouter(ctx, state.originalTerms));
  router.use(secretsRouter(ctx));
  return router;
}
