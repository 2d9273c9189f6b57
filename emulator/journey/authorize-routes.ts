/** The authorize page at `authorize_url`. @see spec §2.2 authorize_url, §4.3 steps 4 and 5 */
import { Router } from 'express';
import type { Context } from '../context.js';
import { csrfValid } from '../pages/csrf.js';
import { formBody, sendPage } from '../pages/http.js';
import { getBrand, getPromotion } from '../store/promotions.js';
import { AUTHORIZE_ERRORS, type Refusal, checkAuthorize, continueAuthorize } from './authorize.js';
import { pageContext, refuseForm } from './page-context.js';
import { authorizePage } from './views/authorize.js';
import { type PageContext, messagePage } from './views/shell.js';

export function authorizeRoutes(ctx: Context): Router {
  const router = Router();

  /** An error page, never a redirect: nothing unvalidated leaves the service. Token values are not logged. */
  const refuse = (page: PageContext, refusal: Refusal) => {
    ctx.logger.info({ refusal: refusal.error, method: page.req.method }, 'authorize refused');
    const { status, message } = AUTHORIZE_ERRORS[refusal.error];
    sendPage(page.res, status, messagePage(page, 'This request cannot continue', refusal.detail ? `${message} (${refusal.detail})` : message, { href: '/rewards', label: 'Go to your Rewards' }));
  };

  router.get('/authorize', (req, res) => {
    const page = pageContext(ctx, req, res);
    const checked = checkAuthorize(ctx, page.collector, req.query);
    if (!checked.ok) return refuse(page, checked);
    const promotion = getPromotion(ctx.db, checked.token.promotion_id);
    sendPage(res, 200, authorizePage(page, promotion, getBrand(ctx.db, promotion.brand_id), checked.request, new URL(checked.token.callback_url).origin));
  });

  router.post('/authorize', formBody, (req, res) => {
    const page = pageContext(ctx, req, res);
    if (!csrfValid(req)) return refuseForm(page);
    const continued = continueAuthorize(ctx, page.collector, req.body);
    if (!continued.ok) return refuse(page, continued);
    res.set('Cache-Control', 'no-store').redirect(303, continued.location);
  });

  return router;
}
