/**
 * The control plane's rows about the world as a whole: health, env, clock, reset, interaction log
 * (and, loaded on first use, the promotions). Rows of the plane's one table (plane.ts), behind `controlGuard`.
 */
import { Router } from 'express';
import { type EndpointTable, anyone, endpointTable, noInput } from '../endpoints.js';
import { z } from 'zod';
import { parseDuration } from '../clock.js';
import { ControlError } from './errors.js';
import { WholeText, validate } from '../validation.js';
import { promotionParam } from '../console/promotion-param.js';
import { listInteractions } from '../store/interaction-reads.js';
import { ClockTime } from './clock-time.js';
import { moveClock } from '../use-cases/control/clock.js';
import { envValues } from '../use-cases/control/env-values.js';
import { health } from '../use-cases/control/health.js';
import { type CalledBack, promotionsCalledBack } from '../use-cases/control/promotions.js';
import { resetToFixture } from '../use-cases/control/reset.js';
import type { ControlContext } from '../use-cases/control/state.js';

const ClockBody = z.union([
  z.strictObject({ advance: z.string().refine((text) => parseDuration(text) !== undefined, 'a duration such as 31m, 2h or 90d') }),
  z.strictObject({ freeze: z.union([z.literal(true), ClockTime]) }),
  z.strictObject({ unfreeze: z.literal(true) }),
  z.strictObject({ reset: z.literal(true) }),
]);

const PromotionsQuery = z.strictObject({ callback: z.string().min(1).max(4096).optional() });

const InteractionsQuery = z.strictObject({
  after: WholeText(0, Number.MAX_SAFE_INTEGER).default(0),
  limit: WholeText(1, 1000).default(100),
});

export function worldRows(endpoint: EndpointTable<ControlContext>, ctx: ControlContext): void {
  endpoint({
    method: 'get', path: '/health', caller: anyone,
    input: noInput,
    run: health,
    answer: (found) => ('problem' in found
      ? { status: 503, body: { status: 'unavailable', problem: found.problem, pid: process.pid } }
      : { status: 200, body: { status: 'ok', base_url: found.baseUrl, clock: found.clock, pid: process.pid } }),
  });
  endpoint({
    method: 'get', path: '/env', caller: anyone,
    input: (req) => promotionParam(ctx, req.query),
    run: (on, _caller, promotionId) => envValues(on, promotionId),
    answer: (values) => ({ status: 200, body: values }),
  });
  endpoint({
    method: 'get', path: '/clock', caller: anyone,
    input: noInput,
    run: (ctx) => ctx.clock.state(),
    answer: (state) => ({ status: 200, body: state }),
  });
  endpoint({
    method: 'post', path: '/clock', caller: anyone,
    input: (req) => validate(ClockBody, req.body, { hint: 'Send {"advance":"31m"}, {"freeze":true|ISO time}, {"unfreeze":true} or {"reset":true}.', details: false }),
    run: (ctx, _caller, move) => moveClock(ctx, move),
    refusal: (error, _caller, body) => {
      const [field, move] = 'advance' in body ? ['advance', `advancing by ${body.advance}`] : 'freeze' in body ? ['freeze', `freezing at ${body.freeze}`] : ['reset', 'going back to system time'];
      return new ControlError('invalid_request', { message: `The clock did not move: ${move} ${error.message}.`, details: { [field]: [`${move} ${error.message}`] } });
    },
    answer: (state) => ({ status: 200, body: state }),
  });
  endpoint({
    method: 'post', path: '/reset', caller: anyone,
    input: noInput,
    run: resetToFixture,
    answer: (body) => ({ status: 200, body }),
  });
  endpoint({
    method: 'get', path: '/interactions', caller: anyone,
    input: (req) => validate(InteractionsQuery, req.query, { hint: 'after and limit must be whole numbers (limit 1 to 1000).', details: false }),
    run: (ctx, _caller, { after, limit }) => listInteractions(ctx.db, { afterId: after, limit }),
    answer: (rows) => ({ status: 200, body: { data: rows.map((row) => ({ ...row, at: new Date(row.at).toISOString() })) } }),
  });
}

/**
 * Every promotion; `?callback=URL` keeps those whose production or preview callback is that URL
 * (how the harness finds its promotion). A table of its own, loaded on first use as the console
 * is: start-up pays only for health and the experience API.
 */
export function promotionsTable(ctx: ControlContext, promotionSummaries: (ctx: ControlContext) => CalledBack[]): Router {
  const router = Router();
  endpointTable(router, { ctx })({
    method: 'get', path: '/', caller: anyone,
    input: (req) => validate(PromotionsQuery, req.query, { hint: 'callback is an absolute URL such as https://agency.example/callback.', details: false }).callback,
    run: (on, _caller, callback) => promotionsCalledBack(promotionSummaries(on), callback),
    answer: (data) => ({ status: 200, body: { data } }),
  });
  return router;
}
