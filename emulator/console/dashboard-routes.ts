/**
 * The dashboard's pages and forms: every promotion listed, each opened at `/?promotion=<slug>`
 * (the default one at `/`). Forms post here with the same `?promotion=`, call the same use cases
 * as the JSON API, and come back to the promotion's page (a one-time secret or a
 * refusal is shown at once instead).
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { PlumbingError } from '../errors.js';
import { csrfValid } from '../pages/csrf.js';
import { formBody, pageErrors, sendPage } from '../pages/http.js';
import { html } from '../pages/html.js';
import { layout } from '../pages/layout.js';
import { latestInteractions } from '../store/interaction-reads.js';
import { knownOutcomePacks } from '../store/known-packs.js';
import { type Promotion, defaultPromotionId, findPromotion, loadCampaign } from '../store/promotions.js';
import { listSinks } from '../store/sinks.js';
import { type Refused, isRefused } from '../wire-contract.js';
import { IdText, queryRule, validate } from '../validation.js';
import { approve } from '../use-cases/console/approval.js';
import { setCallbacks } from '../use-cases/console/callbacks.js';
import { type KeyRefusal, createKey, revokeKey, rotateKey } from '../use-cases/console/keys.js';
import { setRouting } from '../use-cases/console/routing.js';
import { logRows, overview, promotionRef, promotionSummaries } from './lifecycle.js';
import { LIVE_LOG_SCRIPT } from './live-log.js';
import { DASHBOARD_NAV, LOG_SHOWN, type Notice, dashboardPage, pageQuery } from './views/dashboard.js';

interface DashboardRequest {
  req: Request;
  res: Response;
  promotion: Promotion;
}

/** Outcomes named in `/?done=`: the page shows fixed text, never text from the URL. */
const DONE: Record<string, string> = {
  paused: 'Routing paused: later scans go to the hosted page. Entries and prizes stay.',
  resumed: 'Routing resumed.',
  revoked: 'Key revoked.',
  approved: 'The agency experience is approved.',
  callbacks: 'Callback URLs saved.',
  callbacks_cleared: 'Callback URLs saved. The approval and the checklist were cleared: the agency runs the six sandbox scenarios again.',
};

/** The page takes `?promotion=` and `?done=`, a form `?promotion=`, the script nothing (validation.ts, the one rule for queries). */
const PAGE_QUERY = queryRule(['promotion', 'done']);
const FORM_QUERY = queryRule(['promotion']);
const SCRIPT_QUERY = queryRule([]);
const KeyForm = z.object({ environment: z.enum(['sandbox', 'production']).default('sandbox') });
const CallbacksForm = z.object({ production: z.string().default(''), preview: z.string().default('') });

/** `trusted` is the control plane's guard (control/guard.ts), which app.ts hands in: the console stands below the control plane. */
export function dashboardRouter(ctx: Context, trusted: (req: Request) => boolean): Router {
  const router = Router();
  const message = (title: string, text: string) => layout({ title, body: html`<section class="warning"><p>${text}</p></section>`, nav: DASHBOARD_NAV });

  /** What a page or form reads, or a page saying why it cannot be read. */
  const readOr400 = <T>(res: Response, read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof PlumbingError)) throw error;
      sendPage(res, 400, message('Bad request', error.message));
      return undefined;
    }
  };

  router.get('/console/live-log.js', (req, res) => {
    if (!readOr400(res, () => SCRIPT_QUERY(req.query))) return;
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }).send(LIVE_LOG_SCRIPT);
  });

  const guard: RequestHandler = (req, res, next) => {
    if (trusted(req)) return next();
    sendPage(res, 403, message('Dashboard not available', 'The dashboard answers on loopback only. Open it at 127.0.0.1 or localhost on the machine that runs the emulator, or use the CLI with --control-token.'));
  };

  const render = (page: DashboardRequest, status: number, notice?: Notice, callbackInput?: { production: string; preview: string }) => {
    const data = overview(ctx, page.promotion.id);
    sendPage(page.res, status, dashboardPage(page.req, page.res, {
      data, promotions: promotionSummaries(ctx), log: logRows(ctx, latestInteractions(ctx.db, LOG_SHOWN)), notice, callbackInput,
      packs: knownOutcomePacks(ctx.db, ctx.seed, loadCampaign(ctx.db, page.promotion.id)),
      sinks: listSinks(ctx.db), clock: ctx.clock.state(),
      urls: { public: ctx.config.baseUrl, local: ctx.config.localUrl ?? ctx.config.baseUrl },
    }));
  };

  /** The promotion a page or form is about: `?promotion=`, or the default one. */
  const promotionOf = (ref: string | undefined): Promotion | undefined =>
    ref === undefined ? findPromotion(ctx.db, String(defaultPromotionId(ctx.db))) : findPromotion(ctx.db, ref);
  const noSuchPromotion = (res: Response) => sendPage(res, 404, message('No such promotion', 'The dashboard lists every promotion: open one from there.'));
  /** The promotion's page, with what just happened. */
  const back = (page: DashboardRequest, done: keyof typeof DONE) => page.res.redirect(303, `/?${pageQuery(promotionRef(ctx, page.promotion))}done=${done}`);

  router.get('/', guard, (req, res) => {
    const query = readOr400(res, () => PAGE_QUERY(req.query));
    if (!query) return;
    const promotion = promotionOf(query.promotion);
    if (!promotion) return noSuchPromotion(res);
    const { done } = query;
    render({ req, res, promotion }, 200, done && DONE[done] ? { kind: 'success', text: DONE[done] } : undefined);
  });

  /** Every form: CSRF first, then the promotion, then the action. */
  const form = (path: string, action: (page: DashboardRequest) => void) =>
    router.post(path, guard, formBody, (req, res) => {
      if (!csrfValid(req)) return sendPage(res, 403, message('This form has expired', 'Reload the dashboard and send the form again.'));
      const query = readOr400(res, () => FORM_QUERY(req.query));
      if (!query) return;
      const promotion = promotionOf(query.promotion);
      if (!promotion) return noSuchPromotion(res);
      action({ req, res, promotion });
    });

  const keyChange = <T extends object>(page: DashboardRequest, change: T | Refused<KeyRefusal>, onDone: (value: T) => void) => {
    if (!isRefused(change)) return onDone(change);
    render(page, change.refused === 'unknown_key' ? 404 : 409, { kind: 'warning', text: change.refused === 'unknown_key' ? 'No such key.' : 'That key is revoked; create a new key instead.' });
  };

  form('/console/keys', (page) => {
    const fields = readOr400(page.res, () => validate(KeyForm, page.req.body, { hint: 'The environment is sandbox or production.' }));
    if (!fields) return;
    const { environment } = fields;
    const key = createKey(ctx, environment, page.promotion.id);
    render(page, 201, { kind: 'success', text: `Created ${environment} key #${key.id}.`, secret: key.secret });
  });

  /** The key a form's path names: its id's digits exactly, as the JSON API reads it. */
  const keyIdOf = (page: DashboardRequest) => readOr400(page.res, () => validate(IdText, page.req.params.id, { hint: 'A key id is a whole number such as 12.' }));

  form('/console/keys/:id/rotate', (page) => {
    const id = keyIdOf(page);
    if (id === undefined) return;
    keyChange(page, rotateKey(ctx, id, page.promotion.id), (key) =>
      render(page, 201, { kind: 'success', text: `Created ${key.environment} key #${key.id} to replace #${key.replaces}. Revoke #${key.replaces} once the agency uses the new key.`, secret: key.secret }),
    );
  });

  form('/console/keys/:id/revoke', (page) => {
    const id = keyIdOf(page);
    if (id !== undefined) keyChange(page, revokeKey(ctx, id, page.promotion.id), () => back(page, 'revoked'));
  });

  form('/console/callbacks', (page) => {
    const fields = readOr400(page.res, () => validate(CallbacksForm, page.req.body, { hint: 'The callback URLs are text.' }));
    if (!fields) return;
    const { production, preview } = fields;
    const change = setCallbacks(ctx, { production, ...(preview.trim() ? { preview } : {}) }, page.promotion.id);
    if (isRefused(change)) {
      const items = Object.entries(change.refused).map(([name, reasons]) => `The ${name} callback URL ${reasons.join('; ')}.`);
      return render(page, 400, { kind: 'warning', text: 'The callback URLs were not saved.', items }, { production, preview });
    }
    back(page, change.changed ? 'callbacks_cleared' : 'callbacks');
  });

  form('/console/approve', (page) => {
    const approval = approve(ctx, page.promotion.id);
    if (!isRefused(approval)) return back(page, 'approved');
    const items = Object.entries(approval.refused).flatMap(([name, reasons]) => reasons.map((reason) => (name === 'checklist' ? reason : `${name.replace('_', ' ')} ${reason}`)));
    render(page, 409, { kind: 'warning', text: 'Not approved yet. Still missing:', items });
  });

  form('/console/pause', (page) => {
    setRouting(ctx, true, page.promotion.id);
    back(page, 'paused');
  });

  form('/console/resume', (page) => {
    setRouting(ctx, false, page.promotion.id);
    back(page, 'resumed');
  });

  router.use(pageErrors(ctx.logger, (title, text) => layout({ title, body: html`<section class="warning">${text}</section>`, nav: DASHBOARD_NAV })));
  return router;
}
