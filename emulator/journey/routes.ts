/**
 * The browser journey's pages: pack scan, sign-in, hosted page, authorize, Rewards, Promotions,
 * each module a table of rows (endpoints.ts). Forms work without JavaScript. @see spec §1 rules, §4.3
 */
import { Router } from 'express';
import type { Context } from '../context.js';
import { pageErrors } from '../pages/http.js';
import { warningPage } from '../pages/layout.js';
import { authorizeRoutes } from './authorize-routes.js';
import { collectorRoutes } from './collector-routes.js';
import { journeyRefusals } from './errors.js';
import { hostedRoutes } from './hosted-routes.js';
import { scanRoutes } from './scan-routes.js';
import { signInRoutes } from './sign-in-routes.js';
import { JOURNEY_NAV } from './views/shell.js';

export function journeyRouter(ctx: Context): Router {
  const router = Router();
  router.use(scanRoutes(ctx));
  router.use(signInRoutes(ctx));
  router.use(hostedRoutes(ctx));
  router.use(authorizeRoutes(ctx));
  router.use(collectorRoutes(ctx));
  router.use(journeyRefusals(ctx), pageErrors(ctx.logger, warningPage(JOURNEY_NAV)));
  return router;
}
