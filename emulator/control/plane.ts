/**
 * The control plane `/_emulator` as one route table: for tools and
 * tests, on loopback or behind the control token. The order matters where it says so.
 */
import { Router } from 'express';
import { errorWriter } from '../errors.js';
import { jsonBody, lazy, noOptions, notFound } from '../http.js';
import { faultsRouter } from './faults-routes.js';
import { controlGuard } from './guard.js';
import { queryParams } from './query-params.js';
import type { ControlContext } from './state.js';
import { controlRouter } from './routes.js';
import { secretsRouter } from './secrets.js';
import { worldEditsRouter } from './world-edits.js';

export function controlPlane(ctx: ControlContext): Router {
  const router = Router();
  router.use(controlGuard(ctx.config), noOptions, queryParams);
  // The sink verifies signatures on the bytes as they came: before the JSON body reader.
  router.use('/sink', lazy(() => import('./sink.js'), ({ sinkReceiver }) => sinkReceiver(ctx)));
  router.use('/api-docs', lazy(() => import('../openapi/reference.js'), ({ apiReferenceRouter }) => apiReferenceRouter()));
  // The APIs' body reader (http.ts): UTF-8 JSON up to 100 KB, the same refusals.
  router.use(jsonBody);
  router.use('/console', lazy(() => import('../console/api-routes.js'), ({ consoleApiRouter }) => consoleApiRouter(ctx)), notFound);
  // health, env, promotions, clock, reset, interactions
  router.use(controlRouter(ctx));
  // faults, observed
  router.use(faultsRouter(ctx, ctx.controlState));
  // terms, deliveries/settle, packs
  router.use(worldEditsRouter(ctx, ctx.controlState.originalTerms));
  router.use(secretsRouter(ctx));
  // webhooks, sinks
  router.use(lazy(() => import('./webhooks.js'), ({ webhooksControlRouter }) => webhooksControlRouter(ctx)));
  // seed
  router.use(lazy(() => import('../reporting/control.js'), ({ seedControlRouter }) => seedControlRouter(ctx)));
  router.use(notFound, errorWriter(ctx.logger));
  return router;
}
