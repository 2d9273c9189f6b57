/**
 * The experience API route table. Routes stay thin: authenticate, validate, call a use case.
 * @see spec §4.1
 */
import { Router, type Request, type Response } from 'express';
import type { Context } from '../context.js';
import { SlidingWindowLimiter } from '../domain/rate-limit.js';
import { OPENAPI_PATH } from '../api-docs.js';
import { loadCampaign } from '../store/promotions.js';
import type { AgencyKey } from '../store/keys.js';
import type { Session } from '../store/sessions.js';
import { type CallerLocals, authenticateKey, authenticateSession } from './auth.js';
import { submitEntry } from './entry.js';
import { ApiError } from './errors.js';
import { EntryBody, ProductionSessionBody, SandboxSessionBody, entryDetailsOf } from './schemas.js';
import { campaignJson, campaignReadJson, sessionJson } from './serialize.js';
import { createSandboxSession, exchangeCode, sessionView } from './sessions.js';
import { validate } from '../validation.js';

/** `openApi` serves the API's own document (openapi/experience.ts): app.ts hands it in, as openapi/ stands above the API it describes. */
export function experienceRouter(ctx: Context, openApi: () => object): { router: Router; resetLimits(): void } {
  const router = Router();
  let perKey = new SlidingWindowLimiter(ctx.config.limits.perKey, ctx.config.limits.windowMs);
  let perSession = new SlidingWindowLimiter(ctx.config.limits.perSession, ctx.config.limits.windowMs);
  const resetLimits = () => {
    perKey = new SlidingWindowLimiter(ctx.config.limits.perKey, ctx.config.limits.windowMs);
    perSession = new SlidingWindowLimiter(ctx.config.limits.perSession, ctx.config.limits.windowMs);
  };

  /** The §8 rate limit (decisions/004); not the admission rule of an entry (domain/admission.ts). */
  const withinRateLimit = (limiter: 'key' | 'session', id: string) => {
    const taken = (limiter === 'key' ? perKey : perSession).take(id, ctx.clock.now());
    if (!taken.ok) throw new ApiError('rate_limited', { headers: { 'Retry-After': String(taken.retryAfterSeconds) } });
  };
  const key = (req: Request, res: Response): AgencyKey => {
    const found = authenticateKey(ctx, req, res);
    withinRateLimit('key', `key:${found.id}`);
    return found;
  };
  const session = (req: Request, res: Response, agencyKey: AgencyKey): Session => {
    const found = authenticateSession(ctx, req, res, agencyKey);
    withinRateLimit('session', `session:${found.id}`);
    return found;
  };

  // Public: the document holds no secrets, and tools fetch it without credentials.
  router.get(OPENAPI_PATH, (_req, res) => {
    res.json(openApi());
  });

  router.get('/campaign', (req, res) => {
    const agencyKey = key(req, res);
    res.json(campaignReadJson(ctx.config, agencyKey.environment, campaignJson(loadCampaign(ctx.db, agencyKey.promotion_id))));
  });

  router.post('/sessions', (req, res) => {
    const agencyKey = key(req, res);
    const created =
      agencyKey.environment === 'sandbox'
        ? createSandboxSession(ctx, agencyKey, validate(SandboxSessionBody, req.body).scenario)
        : exchangeCode(ctx, agencyKey, validate(ProductionSessionBody, req.body));
    (res.locals as CallerLocals).session = created.view.session;
    res.status(201).json(sessionJson(created.view, created.token));
  });

  router.post('/session/entry', (req, res) => {
    const current = session(req, res, key(req, res));
    const { consent } = validate(EntryBody, req.body, { details: entryDetailsOf });
    res.json(sessionJson(submitEntry(ctx, current, consent)));
  });

  router.get('/session', (req, res) => {
    const current = session(req, res, key(req, res));
    res.json(sessionJson(sessionView(ctx, current, loadCampaign(ctx.db, current.promotion_id))));
  });

  return { router, resetLimits };
}

