/**
 * The control plane `/_emulator` as one table of endpoints (endpoints.ts): for tools and tests, on
 * loopback or behind the control token. Its rows are grouped by what they hold: the world as a
 * whole (world-rows.ts), faults and observed calls (fault-rows.ts), the world's edits
 * (world-edit-rows.ts), the issued secrets (secret-rows.ts); the groups needed only by some tools are
 * loaded on their first request, keeping start-up to health and the experience API: the
 * promotions, the console's API, webhooks and sinks, the seed. The order matters where it says so.
 */
import { Router } from 'express';
import { type EndpointTable, endpointTable } from '../endpoints.js';
import { errorWriter } from '../errors.js';
import { jsonBody, lazy, noOptions, notFound } from '../http.js';
import { faultRows } from './fault-rows.js';
import { controlGuard } from './guard.js';
import { queryParams } from './query-params.js';
import type { ControlContext } from '../use-cases/control/state.js';
import { secretRows } from './secret-rows.js';
import { worldEditRows } from './world-edit-rows.js';
import { promotionsTable, worldRows } from './world-rows.js';

export function controlPlane(ctx: ControlContext): Router {
  const router = Router();
  /** A group of rows loaded on first use, on a router of its own (the table's rows stay in order). */
  const loaded = (add: (endpoint: EndpointTable<ControlContext>) => void) => {
    const group = Router();
    add(endpointTable(group, { ctx }));
    return group;
  };
  router.use(controlGuard(ctx.config), noOptions, queryParams);
  // The sink verifies signatures on the bytes as they came: before the JSON body reader.
  router.use('/sink', lazy(() => import('./sink.js'), ({ sinkReceiver }) => sinkReceiver(ctx)));
  router.use('/api-docs', lazy(() => import('../openapi/reference.js'), ({ apiReferenceRouter }) => apiReferenceRouter()));
  // The APIs' body reader (http.ts): UTF-8 JSON up to 100 KB, the same refusals.
  router.use(jsonBody);
  router.use('/console', lazy(() => import('../console/api-routes.js'), ({ consoleApiRouter }) => consoleApiRouter(ctx)), notFound);
  router.use('/promotions', lazy(() => import('../use-cases/console/reads.js'), ({ promotionSummaries }) => promotionsTable(ctx, promotionSummaries)));
  const endpoint = endpointTable(router, { ctx });
  worldRows(endpoint, ctx);
  faultRows(endpoint);
  worldEditRows(endpoint, ctx);
  secretRows(endpoint);
  router.use(lazy(() => import('./webhooks.js'), ({ webhooksControlRouter }) => webhooksControlRouter(ctx)));
  router.use(lazy(() => import('./seed-rows.js'), ({ seedRows }) => loaded((add) => seedRows(add, ctx))));
  router.use(notFound, errorWriter(ctx.logger));
  return router;
}
