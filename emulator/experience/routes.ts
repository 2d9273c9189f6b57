/**
 * The experience API route table. Routes stay thin: authenticate, validate, call a use case.
 * @see spec §4.1
 */
import { Router } from 'express';
import type { Context } from '../context.js';
import { OPENAPI_PATH } from '../api-docs.js';
import { cached } from '../store/cache.js';
import type { AgencyKey } from '../store/keys.js';
import { loadCampaign } from '../store/promotions.js';
import { sendJson } from '../http.js';
import type { CampaignReadJson } from './responses.js';
import { type CallerLocals, callerGate } from './auth.js';
import { submitEntry } from './entry.js';
import { EntryBody, ProductionSessionBody, SandboxSessionBody, entryDetailsOf } from './schemas.js';
import { campaignJson, campaignReadJson, sessionJson } from './serialize.js';
import { createSandboxSession, exchangeCode, sessionView } from './sessions.js';
import { validate } from '../validation.js';

/** `openApi` serves the API's own document (openapi/experience.ts): app.ts hands it in, as openapi/ stands above the API it describes. */
export function experienceRouter(ctx: Context, openApi: () => object): { router: Router; resetLimits(): void } {
  const router = Router();
  const caller = callerGate(ctx);

  // Public: the document holds no secrets, and tools fetch it without credentials.
  router.get(OPENAPI_PATH, (_req, res) => {
    res.json(openApi());
  });

  router.get('/campaign', (req, res) => {
    const { body, text } = campaignAnswer(ctx, caller.key(req, res));
    sendJson(res, body, text);
  });

  router.post('/sessions', (req, res) => {
    const agencyKey = caller.key(req, res);
    const created =
      agencyKey.environment === 'sandbox'
        ? createSandboxSession(ctx, agencyKey, validate(SandboxSessionBody, req.body).scenario)
        : exchangeCode(ctx, agencyKey, validate(ProductionSessionBody, req.body));
    (res.locals as CallerLocals).session = created.view.session;
    res.status(201).json(sessionJson(created.view, created.token));
  });

  router.post('/session/entry', (req, res) => {
    const current = caller.session(req, res);
    const { consent } = validate(EntryBody, req.body, { details: entryDetailsOf });
    res.json(sessionJson(submitEntry(ctx, current, consent)));
  });

  router.get('/session', (req, res) => {
    const current = caller.session(req, res);
    res.json(sessionJson(sessionView(ctx, current, loadCampaign(ctx.db, current.promotion_id))));
  });

  return { router, resetLimits: caller.resetLimits };
}

/**
 * The campaign read is the same for every key of one environment on the promotion until its
 * catalog changes, so it is made and serialized once and kept with the catalog's copies
 * (store/cache.ts), which any write to the promotion, its prizes or its brand empties.
 */
function campaignAnswer(ctx: Context, key: AgencyKey): { body: CampaignReadJson; text: string } {
  return cached(ctx.db, 'catalog', `campaign-read:${key.promotion_id}:${key.environment}:${ctx.config.baseUrl}`, () => {
    const body = campaignReadJson(ctx.config, key.environment, campaignJson(loadCampaign(ctx.db, key.promotion_id)));
    return { body, text: JSON.stringify(body) };
  });
}
