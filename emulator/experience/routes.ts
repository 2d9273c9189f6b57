/**
 * The experience API, one table: each endpoint with who may call it (a key, or the session a key
 * exchanged), its body, its use case (use-cases/) and how its answer is written (serialize.ts).
 * A request walks its endpoint once: the caller (auth.ts), then the body, read only for a caller
 * that passed (http.ts), then the use case inside the turn's shared transaction, and its answer (a
 * value: fast-path/json.ts) or the refusal's error, written once that transaction is committed
 * (fast-path/held-answer.ts). @see spec §4.1
 */
import { type Request, type Response, Router } from 'express';
import type { Context } from '../context.js';
import { OPENAPI_PATH } from '../api-docs.js';
import { answerAtCommit } from '../fast-path/held-answer.js';
import { cached } from '../fast-path/cache.js';
import type { Answer } from '../fast-path/json.js';
import { jsonBody } from '../http.js';
import type { AgencyKey } from '../store/keys.js';
import type { Session } from '../store/sessions.js';
import { readCampaign } from '../use-cases/campaign-read.js';
import { isRefused, type Refused } from '../use-cases/refused.js';
import { createSessionEntry } from '../use-cases/session-entry.js';
import { type OpenSessionInput, openSession } from '../use-cases/session-open.js';
import { readSession } from '../use-cases/session-read.js';
import { validate } from '../validation.js';
import { type SessionAnswer, callerGate } from './auth.js';
import type { ApiError } from './errors.js';
import { entryRefusal, exchangeRefusal } from './refusals.js';
import type { CampaignReadJson } from './responses.js';
import { EntryBody, ProductionSessionBody, SandboxSessionBody, entryDetailsOf } from './schemas.js';
import { campaignJson, campaignReadJson, sessionJson } from './serialize.js';

interface Callers {
  key: AgencyKey;
  session: Session;
}

interface Endpoint<Caller extends keyof Callers, Input, Result extends object, Reason> {
  method: 'get' | 'post';
  path: string;
  caller: Caller;
  /** The body, validated (`noBody` for an endpoint that takes none). */
  input: (body: unknown, caller: Callers[Caller]) => Input;
  run: (ctx: Context, caller: Callers[Caller], input: Input) => Result | Refused<Reason>;
  refusal?: (reason: Reason) => ApiError;
  answer: (result: Result, caller: Callers[Caller]) => Answer;
}

/** What an endpoint without a body reads of it: nothing. */
const noBody = (): undefined => undefined;

/** `openApi` serves the API's own document (openapi/experience.ts): app.ts hands it in, as openapi/ stands above the API it describes. */
export function experienceRouter(ctx: Context, openApi: () => object): { router: Router; resetLimits(): void } {
  const router = Router();
  const gate = callerGate(ctx);
  const identify: { [Caller in keyof Callers]: (req: Request, res: Response) => Callers[Caller] } = { key: gate.key, session: gate.session };

  /**
   * A row of the table, each typed by its own endpoint: the caller identified, then the body read
   * (for a caller that passed), then its use case inside the turn's transaction, answered at the commit.
   */
  const endpoint = <Caller extends keyof Callers, Input, Result extends object, Reason = never>(row: Endpoint<Caller, Input, Result, Reason>) => {
    const answer = (caller: Callers[Caller], input: Input): Answer | ApiError => {
      const outcome = row.run(ctx, caller, input);
      if (!isRefused(outcome)) return row.answer(outcome, caller);
      if (!row.refusal) throw new Error(`${row.method.toUpperCase()} ${row.path} refused with no refusal to answer it`);
      return row.refusal(outcome.refused);
    };
    router[row.method](row.path, (req, res, next) => {
      const caller = identify[row.caller](req, res);
      jsonBody(req, res, (error?: unknown) => {
        if (error) return next(error);
        try {
          const input = row.input(req.body, caller);
          answerAtCommit(ctx.db, ctx.logger, res, () => answer(caller, input));
        } catch (thrown) {
          next(thrown);
        }
      });
    });
  };

  // Public: the document holds no secrets, and tools fetch it without credentials.
  router.get(OPENAPI_PATH, (_req, res) => {
    res.json(openApi());
  });

  endpoint({
    method: 'get', path: '/campaign', caller: 'key',
    input: noBody,
    run: readCampaign,
    answer: (campaign, key) => campaignAnswer(ctx, key, () => campaignReadJson(ctx.config, key.environment, campaignJson(campaign))),
  });
  endpoint({
    method: 'post', path: '/sessions', caller: 'key',
    input: (body, key): OpenSessionInput => (key.environment === 'sandbox' ? validate(SandboxSessionBody, body) : validate(ProductionSessionBody, body)),
    run: openSession,
    refusal: exchangeRefusal,
    answer: ({ view, token }): SessionAnswer => ({ status: 201, body: sessionJson(view, token), session: view.session }),
  });
  endpoint({
    method: 'post', path: '/session/entry', caller: 'session',
    input: (body) => validate(EntryBody, body, { details: entryDetailsOf }).consent,
    run: createSessionEntry,
    refusal: entryRefusal,
    answer: (view) => ({ status: 200, body: sessionJson(view) }),
  });
  endpoint({
    method: 'get', path: '/session', caller: 'session',
    input: noBody,
    run: readSession,
    answer: (view) => ({ status: 200, body: sessionJson(view) }),
  });

  return { router, resetLimits: gate.resetLimits };
}

/**
 * The campaign read is the same for every key of one environment on the promotion until its
 * catalog changes, so it is made and serialized once and kept with the catalog's copies
 * (fast-path/cache.ts), which any write to the promotion, its prizes or its brand empties.
 */
function campaignAnswer(ctx: Context, key: AgencyKey, make: () => CampaignReadJson): Answer {
  return cached(ctx.db, 'catalog', `campaign-read:${key.promotion_id}:${key.environment}:${ctx.config.baseUrl}`, () => {
    const body = make();
    return { status: 200, body, text: JSON.stringify(body) };
  });
}
