/**
 * The control plane `/_emulator`, for tools and tests: health, env, clock, reset, interaction log.
 * app.ts puts `controlGuard` in front of it.
 */
import { Router, json } from 'express';
import { z } from 'zod';
import { parseDuration } from '../clock.js';
import type { Context } from '../context.js';
import { ApiError } from '../experience/errors.js';
import type { Fixture } from '../fixture.js';
import { listInteractions } from '../store/interactions.js';
import { resetWorld } from '../store/reset.js';
import { envValues } from './env.js';
import { resetObservations } from './faults.js';

const ClockBody = z.union([
  z.strictObject({ advance: z.string().refine((text) => parseDuration(text) !== undefined, 'a duration such as 31m, 2h or 90d') }),
  z.strictObject({ freeze: z.union([z.literal(true), z.iso.datetime({ offset: true })]) }),
  z.strictObject({ unfreeze: z.literal(true) }),
]);

const InteractionsQuery = z.strictObject({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export function controlRouter(ctx: Context & { fixture: Fixture; resetLimits(): void }): Router {
  const router = Router();
  router.use(json({ limit: '100kb' }));

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok', base_url: ctx.config.baseUrl, clock: ctx.clock.state(), pid: process.pid });
  });

  router.get('/env', (_req, res) => {
    res.json(envValues(ctx));
  });

  router.get('/clock', (_req, res) => {
    res.json(ctx.clock.state());
  });

  router.post('/clock', (req, res) => {
    const parsed = ClockBody.safeParse(req.body ?? {});
    if (!parsed.success) throw new ApiError('invalid_request', { message: 'Send {"advance":"31m"}, {"freeze":true|ISO time} or {"unfreeze":true}.' });
    const body = parsed.data;
    if ('advance' in body) ctx.clock.advance(parseDuration(body.advance)!);
    else if ('freeze' in body) ctx.clock.freeze(body.freeze === true ? undefined : Date.parse(body.freeze));
    else ctx.clock.unfreeze();
    res.json(ctx.clock.state());
  });

  router.post('/reset', (_req, res) => {
    resetWorld(ctx.db, ctx.fixture, ctx.seed, ctx.clock.now());
    ctx.resetLimits();
    resetObservations(ctx);
    ctx.logger.info('world reset to the fixture');
    res.json({ status: 'reset' });
  });

  router.get('/interactions', (req, res) => {
    const parsed = InteractionsQuery.safeParse(req.query);
    if (!parsed.success) throw new ApiError('invalid_request', { message: 'after and limit must be whole numbers (limit 1 to 1000).' });
    const rows = listInteractions(ctx.db, { afterId: parsed.data.after, limit: parsed.data.limit });
    res.json({ data: rows.map((row) => ({ ...row, at: new Date(row.at).toISOString() })) });
  });

  return router;
}
