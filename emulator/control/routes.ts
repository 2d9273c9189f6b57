/**
 * The control plane `/_emulator`, for tools and tests: health, env, promotions, clock, reset,
 * interaction log. Mounted in plane.ts, behind `controlGuard`.
 */
import { Router } from 'express';
import { z } from 'zod';
import { type Clock, ClockRangeError, parseDuration } from '../clock.js';
import { ControlError } from './errors.js';
import { lazy } from '../http.js';
import { WholeText, validate } from '../validation.js';
import { promotionParam } from '../console/promotion-param.js';
import { checkCallbackUrl } from '../wire-contract.js';
import { databaseProblem } from '../store/health.js';
import { listInteractions } from '../store/interaction-reads.js';
import { resetWorld } from '../store/reset.js';
import { announceReset } from '../events.js';
import { ClockTime } from './clock-time.js';
import { envValues } from './env.js';
import { type ControlContext, resetObservations } from './state.js';

const ClockBody = z.union([
  z.strictObject({ advance: z.string().refine((text) => parseDuration(text) !== undefined, 'a duration such as 31m, 2h or 90d') }),
  z.strictObject({ freeze: z.union([z.literal(true), ClockTime]) }),
  z.strictObject({ unfreeze: z.literal(true) }),
  z.strictObject({ reset: z.literal(true) }),
]);

const PromotionsQuery = z.strictObject({ callback: z.string().min(1).max(4096).optional() });

/** A callback URL as the console stores it (checkCallbackUrl normalizes it), so `https://a.example/cb` finds `https://A.example/cb`. */
function sameUrl(text: string): string {
  const check = checkCallbackUrl(text);
  return check.ok ? check.url : text.trim();
}

const InteractionsQuery = z.strictObject({
  after: WholeText(0, Number.MAX_SAFE_INTEGER).default(0),
  limit: WholeText(1, 1000).default(100),
});

export function controlRouter(ctx: ControlContext): Router {
  const router = Router();
  
  router.get('/health', (_req, res) => {
    const problem = databaseProblem(ctx.db);
    if (problem) return void res.status(503).json({ status: 'unavailable', problem, pid: process.pid });
    res.json({ status: 'ok', base_url: ctx.config.baseUrl, clock: clockForHealth(ctx.clock), pid: process.pid });
  });

  router.get('/env', (req, res) => {
    res.json(envValues(ctx, promotionParam(ctx, req.query)));
  });

  /** Every promotion; `?callback=URL` keeps those whose production or preview callback is that URL (how the harness finds its promotion). Loaded on first use, as the console is: start-up pays only for health and the experience API. */
  router.get('/promotions', lazy(() => import('../console/lifecycle.js'), ({ promotionSummaries }) => (req, res) => {
    const { callback } = validate(PromotionsQuery, req.query, { hint: 'callback is an absolute URL such as https://agency.example/callback.', details: false });
    const wanted = callback === undefined ? undefined : sameUrl(callback);
    const data = promotionSummaries(ctx).filter(({ callbacks }) => wanted === undefined || [callbacks.production, callbacks.preview].some((url) => url !== null && sameUrl(url) === wanted));
    res.json({ data });
  }));

  router.get('/clock', (_req, res) => {
    res.json(ctx.clock.state());
  });

  router.post('/clock', (req, res) => {
    const body = validate(ClockBody, req.body, { hint: 'Send {"advance":"31m"}, {"freeze":true|ISO time}, {"unfreeze":true} or {"reset":true}.', details: false });
    try {
      if ('advance' in body) ctx.clock.advance(parseDuration(body.advance)!);
      else if ('freeze' in body) ctx.clock.freeze(body.freeze === true ? undefined : Date.parse(body.freeze));
      else if ('unfreeze' in body) ctx.clock.unfreeze();
      else ctx.clock.reset();
    } catch (error) {
      if (!(error instanceof ClockRangeError)) throw error;
      const [field, move] = 'advance' in body ? ['advance', `advancing by ${body.advance}`] : 'freeze' in body ? ['freeze', `freezing at ${body.freeze}`] : ['reset', 'going back to system time'];
      throw new ControlError('invalid_request', { message: `The clock did not move: ${move} ${error.message}.`, details: { [field]: [`${move} ${error.message}`] } });
    }
    res.json(ctx.clock.state());
  });

  router.post('/reset', (_req, res) => {
    announceReset(ctx);
    resetWorld(ctx.db, ctx.fixture, ctx.seed, ctx.clock.now());
    ctx.resetLimits();
    resetObservations(ctx.controlState);
    ctx.logger.info('world reset to the fixture');
    res.json({ status: 'reset' });
  });

  router.get('/interactions', (req, res) => {
    const { after, limit } = validate(InteractionsQuery, req.query, { hint: 'after and limit must be whole numbers (limit 1 to 1000).', details: false });
    const rows = listInteractions(ctx.db, { afterId: after, limit });
    res.json({ data: rows.map((row) => ({ ...row, at: new Date(row.at).toISOString() })) });
  });

  return router;
}

/** Health answers whatever the clock shows: a clock that cannot be read is reported, not a failure. */
function clockForHealth(clock: Clock): object {
  try {
    return clock.state();
  } catch {
    return { mode: 'unreadable' };
  }
}
