/**
 * The experience API, one table: each endpoint with who may call it (a key, or the session a key
 * exchanged), its body, its use case (use-cases/) and how its answer is written (serialize.ts).
 * A request walks its endpoint once: the caller (auth.ts), then the body, read only for a caller
 * that passed (http.ts), then the use case inside the turn's shared transaction, and its answer (a
 * value: fast-path/json.ts) or the refusal's error, written once that transaction is committed
 * (fast-path/held-answer.ts). @see spec §4.1
 */
import { Router } from 'express';
import type { Context } from '../context.js';
import { OPENAPI_PATH } from '../api-docs.js';
import { type Writer, anyone, endpointTable, noInput } from '../endpoints.js';
import { answerAtCommit } from '../fast-path/held-answer.js';
import { cached } from '../fast-path/cache.js';
import type { Answer } from '../fast-path/json.js';
import { jsonBody } from '../http.js';
import type { AgencyKey } from '../store/keys.js';
import { readCampaign } from '../use-cases/campaign-read.js';
import { createSessionEntry } from '../use-cases/session-entry.js';
import { exchangeCode, openSandboxSession } from '../use-cases/session-open.js';
import { readSession } from '../use-cases/session-read.js';
import { validate } from '../validation.js';
import { type SessionAnswer, callerGate } from './auth.js';
import { entryRefusal, exchangeRefusal } from './refusals.js';
import type { CampaignReadJson } from './responses.js';
import { EntryBody, ProductionSessionBody, SandboxSessionBody, entryDetailsOf } from './schemas.js';
import { campaignJson, campaignReadJson, sessionJson } from './serialize.js';

/** `openApi` serves the API's own document (openapi/experience.ts): app.ts hands it in, as openapi/ stands above the API it describes. */
export function experienceRouter(ctx: Context, openApi: () => object): { router: Router; resetLimits(): void } {
  const router = Router();
  const gate = callerGate(ctx);
  const atCommit: Writer<Answer> = (res, _next, make) => answerAtCommit(ctx.db, ctx.logger, res, make);
  const endpoint = endpointTable(router, { ctx, body: jsonBody, write: atCommit });

  // Public, and read with no body: the document holds no secrets, and tools fetch it without credentials.
  endpointTable(router, { ctx })({
    method: 'get', path: OPENAPI_PATH, caller: anyone,
    input: noInput,
    run: () => openApi(),
    answer: (document) => ({ status: 200, body: document }),
  });
  endpoint({
    method: 'get', path: '/campaign', caller: gate.key,
    input: noInput,
    run: readCampaign,
    answer: (campaign, key) => campaignAnswer(ctx, key, () => campaignReadJson(ctx.config, key.environment, campaignJson(campaign))),
  });
  endpoint({
    method: 'post', path: '/sessions', caller: gate.key,
    // The key's environment, read here only, says which body it sends and which use case opens the session.
    input: (req, key) => {
      if (key.environment === 'sandbox') {
        const body = validate(SandboxSessionBody, req.body);
        return (on: Context) => openSandboxSession(on, key, body);
      }
      const body = validate(ProductionSessionBody, req.body);
      return (on: Context) => exchangeCode(on, key, body);
    },
    run: (on, _key, open) => open(on),
    refusal: exchangeRefusal,
    answer: ({ view, token }): SessionAnswer => ({ status: 201, body: sessionJson(view, token), session: view.session }),
  });
  endpoint({
    method: 'post', path: '/session/entry', caller: gate.session,
    input: (req) => validate(EntryBody, req.body, { details: entryDetailsOf }).consent,
    run: createSessionEntry,
    refusal: entryRefusal,
    answer: (view) => ({ status: 200, body: sessionJson(view) }),
  });
  endpoint({
    method: 'get', path: '/session', caller: gate.session,
    input: noInput,
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
