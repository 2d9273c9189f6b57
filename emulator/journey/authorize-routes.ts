/** The authorize page at `authorize_url`; its refusals are pages (errors.ts). @see spec §2.2 authorize_url, §4.3 steps 4 and 5 */
import { Router } from 'express';
import type { Context } from '../context.js';
import { csrfValid } from '../pages/csrf.js';
import { formBody, sendPage } from '../pages/http.js';
import { getBrand, getPromotion } from '../store/promotions.js';
import { checkAuthorize, continueAuthorize } from './authorize.js';
import { JourneyError } from './errors.js';
import { pageContext } from './page-context.js';
import { authorizePage } from './views/authorize.js';

export function authorizeRoutes(ctx: Context): Router {
  const router = Router();

  router.get('/authorize', (req, res) => {
    const page = pageContext(ctx, req, res);
    const { request, token } = checkAuthorize(ctx, page.collector, req.query);
    const promotion = getPromotion(ctx.db, token.promotion_id);
    sendPage(res, 200, authorizePage(page, promotion, getBrand(ctx.db, promotion.brand_id), request, new URL(token.callback_url).origin));
  });

  router.post('/authorize', formBody, (req, res) => {
    const page = pageContext(ctx, req, res);
    if (!csrfValid(req)) throw new JourneyError('form_expired');
    const location = continueAuthorize(ctx, page.collector, req.body);
    res.set('Cache-Control', 'no-store').redirect(303, location);
  });

  return router;
}
