/** Builds the express app from its parts: the one place that lists every route prefix. */
import express from 'express';
import type { Context } from './context.js';
import { consoleApiRouter } from './console/api-routes.js';
import { dashboardRouter } from './console/dashboard-routes.js';
import { controlGuard } from './control/guard.js';
import { controlRouter } from './control/routes.js';
import { experienceFaults, faultsRouter } from './control/faults.js';
import type { Fixture } from './fixture.js';
import { type CallerLocals, experienceRouter } from './experience/routes.js';
import { errorWriter, jsonBody, notFound } from './http.js';
import { journeyRouter } from './journey/routes.js';
import { pathOnly } from './logger.js';
import { recordInteraction } from './store/interactions.js';
import { seedControlRouter } from './reporting/control.js';
import { reportingErrors } from './reporting/errors.js';
import { reportingRouter } from './reporting/routes.js';
import { webhooksControlRouter } from './webhooks/control.js';
import { sinkReceiver } from './webhooks/sink.js';

const REDACTED_BODY_FIELDS = new Set(['authorization_code', 'code_verifier', 'session_token']);

export function createApp(ctx: Context & { fixture: Fixture }): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((req, res, next) => {
    if (!ctx.logger.isLevelEnabled('debug')) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      ctx.logger.debug({ method: req.method, path: pathOnly(req.originalUrl), status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  });

  const experience = experienceRouter(ctx);
  app.use('/api/experience/v1', experienceFaults(ctx));
  app.use('/api/experience/v1', interactionLog(ctx), jsonBody, experience.router, notFound, errorWriter(ctx.logger));
  app.use('/api/v1', reportingRouter(ctx), notFound, reportingErrors(ctx.logger));
  app.use('/_emulator', controlGuard(ctx.config.controlToken));
  app.use('/_emulator/sink', sinkReceiver(ctx));
  app.use('/_emulator', faultsRouter(ctx), errorWriter(ctx.logger));
  app.use('/_emulator/console', consoleApiRouter(ctx), notFound, errorWriter(ctx.logger));
  app.use('/_emulator', controlRouter({ ...ctx, resetLimits: experience.resetLimits }), webhooksControlRouter(ctx), seedControlRouter(ctx), notFound, errorWriter(ctx.logger));
  app.use(journeyRouter(ctx), dashboardRouter(ctx));
  app.use(notFound, errorWriter(ctx.logger));
  return app;
}

/** Records every experience call (time, key, session, method, path, status, redacted body). */
function interactionLog(ctx: Context): express.RequestHandler {
  return (req, res, next) => {
    res.on('finish', () => {
      const { key, session } = res.locals as CallerLocals;
      recordInteraction(ctx.db, {
        at: ctx.clock.now(), key_id: key?.id ?? null, session_id: session?.id ?? null,
        method: req.method, path: req.baseUrl + req.path, status: res.statusCode, body: redactBody(req.body),
      });
    });
    next();
  };
}

function redactBody(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body ?? null;
  return Object.fromEntries(Object.entries(body).map(([field, value]) => [field, REDACTED_BODY_FIELDS.has(field) ? '[redacted]' : value]));
}
