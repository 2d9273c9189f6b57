/**
 * Builds the express app from its parts: the one place that lists every route prefix. Only what
 * health needs is loaded up front; each area (the experience API, pages, console, reporting,
 * webhooks) loads on its first request, which keeps start-up and idle memory low.
 */
import express from 'express';
import type { Context } from './context.js';
import { trustedCaller } from './control/guard.js';
import { controlPlane } from './control/plane.js';
import { createControlState } from './use-cases/control/state.js';
import { recordCalls } from './control/recorder.js';
import type { Fixture } from './fixture.js';
import type { experienceRouter } from './experience/routes.js';
import { errorWriter } from './errors.js';
import { directJson } from './fast-path/json.js';
import { BODY_TIMEOUT_MS, type BodyLocals, jsonBody, lazy, noOptions, notFound } from './http.js';
import { requestLog } from './request-log.js';
import { authenticateKey } from './experience/auth.js';
import type { CsrfLocals } from './pages/csrf.js';
import { formSecret } from './store/form-secret.js';
import { commitTurnTransaction } from './fast-path/turn-transaction.js';

type ExperienceRouter = ReturnType<typeof experienceRouter>;

export function createApp(ctx: Context & { fixture: Fixture }): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.response.json = directJson(app.response.json);
  const locals: CsrfLocals & BodyLocals = { formSecret: formSecret(ctx.db), bodyTimeoutMs: ctx.config.bodyTimeoutMs ?? BODY_TIMEOUT_MS };
  locals.formSecret.issue();
  Object.assign(app.locals, locals);
  app.use(requestLog(ctx.logger));

  const controlState = createControlState();
  let experience: ExperienceRouter | undefined;
  app.use('/api/experience/v1', lazy(() => Promise.all([import('./experience/routes.js'), import('./openapi/experience.js')]), ([{ experienceRouter }, { experienceOpenApi }]) => {
    experience = experienceRouter(ctx, experienceOpenApi);
    // An endpoint's request walks its row of the table (experience/routes.ts); any other path with a body shows a key first.
    return express.Router().use(recordCalls(ctx, controlState), noOptions, experience.router, keyBeforeBody(ctx), jsonBody, notFound, errorWriter(ctx.logger));
  }));
  // Anything else first commits the experience API's turn transaction: it runs transactions of its own.
  app.use((_req, _res, next) => {
    commitTurnTransaction(ctx.db);
    next();
  });
  app.use('/api/v1', lazy(() => Promise.all([import('./reporting/routes.js'), import('./reporting/errors.js'), import('./openapi/reporting.js')]), ([{ reportingRouter }, { reportingErrors }, { reportingOpenApi }]) =>
    express.Router().use(noOptions, reportingRouter(ctx, reportingOpenApi), notFound, reportingErrors(ctx.logger))));
  app.use('/_emulator', controlPlane({ ...ctx, controlState, resetLimits: () => experience?.resetLimits() }));
  app.use(noOptions, lazy(() => import('./journey/routes.js'), ({ journeyRouter }) => journeyRouter(ctx)), lazy(() => import('./console/dashboard-routes.js'), ({ dashboardRouter }) => dashboardRouter(ctx, (req) => trustedCaller(req, ctx.config))));
  app.use(notFound, errorWriter(ctx.logger));
  return app;
}

/** A request with a body shows a valid key first: the body of a caller without one is never read. */
function keyBeforeBody(ctx: Context): express.RequestHandler {
  return (req, res, next) => {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return next();
    authenticateKey(ctx, req, res);
    next();
  };
}
