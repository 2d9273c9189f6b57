/**
 * The browser journey's pages, one route table: pack scan, sign-in, hosted page, authorize,
 * Rewards, Promotions. Forms work without JavaScript. @see spec §1 rules, §4.3
 */
import { Router } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { csrfValid } from '../pages/csrf.js';
import { formBody, pageErrors, sendPage } from '../pages/http.js';
import { html } from '../pages/html.js';
import { layout } from '../pages/layout.js';
import { findCollector } from '../store/collectors.js';
import { findUnitByCode } from '../store/units.js';
import { validate } from '../validation.js';
import { authorizeRoutes } from './authorize-routes.js';
import { collectorRoutes } from './collector-routes.js';
import { hostedRoutes } from './hosted-routes.js';
import { scanPack } from '../use-cases/journey/scan.js';
import { JourneyError, refusalPages } from './errors.js';
import { pageContext, safeNext, signInFirst } from './page-context.js';
import { offeredCollectors, registerCollector, scannedPack, signIn, signOut } from './sign-in.js';
import { JOURNEY_NAV, messagePage } from './views/shell.js';
import { signInPage } from './views/sign-in.js';

/** A text field of a form or a query; absent, repeated or not text, it reads as absent. */
const text = z.string().optional().catch(undefined);
const SignInQuery = z.object({ next: text });
const SignInForm = z.object({ next: text, collector_id: text, email: text, country: text, city: text });

export function journeyRouter(ctx: Context): Router {
  const router = Router();

  router.get('/q/:code', (req, res) => {
    const page = pageContext(ctx, req, res);
    const unit = findUnitByCode(ctx.db, req.params.code!.trim().toUpperCase());
    if (!unit) {
      return sendPage(res, 404, messagePage(page, 'Pack not found', `No pack has the code ${req.params.code}. Check the code printed on the pack and scan it again.`, { href: '/promotions', label: 'See the promotions' }));
    }
    // Before sign-in and before any hand-off. @see spec §4.3 step 1
    if (unit.recalled) {
      return sendPage(res, 200, messagePage(page, 'Product recall', `This product (${unit.sku_name}) has been recalled. Please do not consume it; the brand's recall notice tells you how to return it. It cannot be entered in a promotion.`));
    }
    if (!page.collector) return signInFirst(res, `/q/${unit.code}`);
    // A HEAD (a link checker, a preview) is no scan: nothing is recorded, no request token issued.
    if (req.method === 'HEAD') return sendPage(res, 200, messagePage(page, 'Scan this pack', 'Open this address in a browser to scan the pack.'));
    const handoff = scanPack(ctx, unit, page.collector, req.get('user-agent'));
    if (handoff.to === 'no_promotion') return sendPage(res, 200, messagePage(page, 'No promotion on this pack', 'Thank you for scanning. No promotion is running on this product at the moment.'));
    if (handoff.to === 'hosted') return res.redirect(303, `/play/${encodeURIComponent(unit.code)}`);
    // The Location carries service_request: not cached, not passed on as a referrer.
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).redirect(303, handoff.location);
  });

  router.get('/sign-in', (req, res) => {
    const next = safeNext(validate(SignInQuery, req.query).next);
    sendPage(res, 200, signInPage(pageContext(ctx, req, res), offeredCollectors(ctx), { next, scanned: scannedPack(ctx, next) }));
  });

  router.post('/sign-in', formBody, (req, res) => {
    const page = pageContext(ctx, req, res);
    if (!csrfValid(req)) throw new JourneyError('form_expired');
    const form = validate(SignInForm, req.body);
    const next = safeNext(form.next);
    const chosen = form.collector_id;
    if (chosen !== undefined) {
      const collector = findCollector(ctx.db, Number(chosen));
      if (!collector) return sendPage(res, 400, signInPage(page, offeredCollectors(ctx), { next, scanned: scannedPack(ctx, next) }));
      signIn(ctx, req, res, collector);
      return res.redirect(303, next);
    }
    const input = { email: form.email?.trim() ?? '', country: form.country ?? '', city: form.city?.trim() || null };
    const registered = registerCollector(ctx, input);
    if ('problems' in registered) {
      return sendPage(res, 400, signInPage(page, offeredCollectors(ctx), { next, scanned: scannedPack(ctx, next), ...input, city: input.city ?? '', problems: registered.problems }));
    }
    signIn(ctx, req, res, registered.collector);
    res.redirect(303, next);
  });

  router.post('/sign-out', formBody, (req, res) => {
    if (!csrfValid(req)) throw new JourneyError('form_expired');
    signOut(ctx, req, res);
    res.redirect(303, '/promotions');
  });

  router.use(hostedRoutes(ctx));
  router.use(authorizeRoutes(ctx));
  router.use(collectorRoutes(ctx));
  router.use(refusalPages(ctx));
  router.use(pageErrors(ctx.logger, (title, message) => layout({ title, body: html`<section class="warning">${message}</section>`, nav: JOURNEY_NAV })));
  return router;
}
