/**
 * The dashboard's page, its script and its forms, as rows of two tables (endpoints.ts): every
 * promotion listed, each opened at `/?promotion=<slug>` (the default one at `/`). Forms post here
 * with the same `?promotion=`, call the same use cases as the JSON API, and come back to the
 * promotion's page (a one-time secret or a refusal is shown at once instead).
 */
import { Router, type Request } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { type PageAnswer, type RedirectAnswer, type RowRequest, anyone, endpointTable, noInput, scriptAnswer } from '../endpoints.js';
import { FormId, csrfValid } from '../pages/csrf.js';
import { formBody, pageErrors } from '../pages/http.js';
import { approve } from '../use-cases/console/approval.js';
import { setCallbacks } from '../use-cases/console/callbacks.js';
import { type DashboardRead, type RefusedOnPage, dashboardRead, pageIfRefused, withPage } from '../use-cases/console/dashboard.js';
import { type KeyRefusal, createKey, revokeKey, rotateKey } from '../use-cases/console/keys.js';
import { namedPromotion } from '../use-cases/console/promotion.js';
import { type PromotionRef, promotionRef } from '../use-cases/console/reads.js';
import { setRouting } from '../use-cases/console/routing.js';
import { IdText, queryRule, validate } from '../validation.js';
import { isRefused } from '../wire-contract.js';
import { DashboardError, dashboardRefusals, dashboardWarning, readOr400 } from './dashboard-errors.js';
import { fieldWords } from './errors.js';
import { LIVE_LOG_SCRIPT } from './live-log.js';
import { type DashboardView, dashboardPage, pageQuery } from './views/dashboard.js';

/** Outcomes named in `/?done=`: the page shows fixed text, never text from the URL. */
const DONE = {
  paused: 'Routing paused: later scans go to the hosted page. Entries and prizes stay.',
  resumed: 'Routing resumed.',
  revoked: 'Key revoked.',
  approved: 'The agency experience is approved.',
  callbacks: 'Callback URLs saved.',
  callbacks_cleared: 'Callback URLs saved. The approval and the checklist were cleared: the agency runs the six sandbox scenarios again.',
} as const;

type Done = keyof typeof DONE;

/** A name of the table's own: `?done=toString` names what every object inherits, not an outcome. */
const isDone = (done: string | undefined): done is Done => done !== undefined && Object.hasOwn(DONE, done);

/** The page takes `?promotion=` and `?done=`, a form `?promotion=`, the script nothing (validation.ts, the one rule for queries). */
const PAGE_QUERY = queryRule(['promotion', 'done']);
const FORM_QUERY = queryRule(['promotion']);
const SCRIPT_QUERY = queryRule([]);
const KeyForm = z.object({ environment: z.enum(['sandbox', 'production']).default('sandbox') });
const CallbacksForm = z.object({ production: z.string().default(''), preview: z.string().default('') });

/** A form once read: the promotion it acts on, and its own fields. */
interface Form<Fields> {
  promotion: PromotionRef;
  fields: Fields;
}

/** `trusted` is the control plane's guard (control/guard.ts), which app.ts hands in: the console stands below the control plane. */
export function dashboardRouter(ctx: Context, trusted: (req: Request) => boolean): Router {
  const router = Router();
  const page = endpointTable(router, { ctx });
  const form = endpointTable(router, { ctx, body: formBody });

  /** A caller off loopback is refused before anything it sends is read; one on loopback is a browser, with the form id its page's forms carry. */
  const onLoopback = (req: RowRequest): FormId => {
    if (!trusted(req)) throw new DashboardError('not_loopback');
    return new FormId(req);
  };
  /** The promotion a page or form is about: `?promotion=`, or the default one, as answers name it. */
  const promotionNamed = (ref: string | undefined): PromotionRef => {
    const promotion = namedPromotion(ctx, ref);
    if (isRefused(promotion)) throw new DashboardError('not_found');
    return promotionRef(ctx, promotion);
  };
  /** Every form reads its CSRF value first, then `?promotion=`, then its own fields. */
  const formOf = <Fields>(req: RowRequest, fields: () => Fields): Form<Fields> => {
    if (!csrfValid(req)) throw new DashboardError('form_expired');
    const promotion = promotionNamed(readOr400(() => FORM_QUERY(req.query)).promotion);
    return { promotion, fields: readOr400(fields) };
  };

  /** The promotion's page as read, with what just happened (a one-time secret, what went wrong) and what a refused form had typed; rendered first, so that the answer carries the form id's cookie. */
  const shown = (browser: FormId, status: number, view: DashboardView): PageAnswer => ({ status, page: dashboardPage(browser, view), cookies: browser.cookies() });
  /** A refused form's page, saying why. */
  const refusedOn = (browser: FormId, status: number, page: DashboardRead, text: string, items?: string[], callbackInput?: DashboardView['callbackInput']): PageAnswer =>
    shown(browser, status, { ...page, notice: { kind: 'warning', text, ...(items ? { items } : {}) }, callbackInput });
  /** Back to the promotion's page, which says what was done. */
  const back = (promotion: PromotionRef, done: Done): RedirectAnswer => ({ status: 303, location: `/?${pageQuery(promotion)}done=${done}` });

  page({
    method: 'get', path: '/console/live-log.js', caller: anyone,
    input: (req) => readOr400(() => SCRIPT_QUERY(req.query)),
    run: () => ({}),
    answer: () => scriptAnswer(LIVE_LOG_SCRIPT),
  });
  page({
    method: 'get', path: '/', caller: onLoopback,
    input: (req) => {
      const { promotion, done } = readOr400(() => PAGE_QUERY(req.query));
      return { promotion: promotionNamed(promotion), done };
    },
    run: (on, _browser, { promotion }) => dashboardRead(on, promotion.id),
    answer: (page, browser, { done }) => shown(browser, 200, { ...page, notice: isDone(done) ? { kind: 'success', text: DONE[done] } : undefined }),
  });

  form({
    method: 'post', path: '/console/keys', caller: onLoopback,
    input: (req) => formOf(req, () => validate(KeyForm, req.body, { hint: 'The environment is sandbox or production.' }).environment),
    run: (on, _browser, { promotion, fields: environment }) => withPage(on, promotion.id, createKey(on, environment, promotion.id)),
    answer: ({ result: key, page }, browser) => shown(browser, 201, { ...page, notice: { kind: 'success', text: `Created ${key.environment} key #${key.id}.`, secret: key.secret } }),
  });
  /** What the forms that change the key their path names share: they differ in the change and its answer. */
  const keyChange = {
    method: 'post', caller: onLoopback,
    // The key's id is its digits exactly, as the JSON API reads it.
    input: (req: RowRequest) => formOf(req, () => validate(IdText, req.params.id, { hint: 'A key id is a whole number such as 12.' })),
    refusal: ({ reason, page }: RefusedOnPage<KeyRefusal>['refused'], browser: FormId) => (reason === 'unknown_key'
      ? refusedOn(browser, 404, page, 'No such key.')
      : refusedOn(browser, 409, page, 'That key is revoked; create a new key instead.')),
  } as const;
  form({
    ...keyChange, path: '/console/keys/:id/rotate',
    run: (on, _browser, { promotion, fields: id }) => withPage(on, promotion.id, rotateKey(on, id, promotion.id)),
    answer: ({ result: key, page }, browser) => shown(browser, 201, { ...page, notice: {
      kind: 'success', text: `Created ${key.environment} key #${key.id} to replace #${key.replaces}. Revoke #${key.replaces} once the agency uses the new key.`, secret: key.secret,
    } }),
  });
  form({
    ...keyChange, path: '/console/keys/:id/revoke',
    run: (on, _browser, { promotion, fields: id }) => pageIfRefused(on, promotion.id, revokeKey(on, id, promotion.id)),
    answer: (_revoked, _browser, { promotion }) => back(promotion, 'revoked'),
  });

  form({
    method: 'post', path: '/console/callbacks', caller: onLoopback,
    input: (req) => formOf(req, () => validate(CallbacksForm, req.body, { hint: 'The callback URLs are text.' })),
    run: (on, _browser, { promotion, fields: { production, preview } }) => pageIfRefused(on, promotion.id, setCallbacks(on, { production, ...(preview.trim() ? { preview } : {}) }, promotion.id)),
    refusal: ({ reason: problems, page }, browser, { fields }) =>
      refusedOn(browser, 400, page, 'The callback URLs were not saved.', Object.entries(problems).map(([name, reasons]) => `The ${name} callback URL ${reasons.join('; ')}.`), fields),
    answer: (change, _browser, { promotion }) => back(promotion, change.changed ? 'callbacks_cleared' : 'callbacks'),
  });
  form({
    method: 'post', path: '/console/approve', caller: onLoopback,
    input: (req) => formOf(req, noInput),
    run: (on, _browser, { promotion }) => pageIfRefused(on, promotion.id, approve(on, promotion.id)),
    refusal: ({ reason: missing, page }, browser) => refusedOn(browser, 409, page, 'Not approved yet. Still missing:',
      Object.entries(missing).flatMap(([name, reasons]) => reasons.map((reason) => (name === 'checklist' ? reason : `${fieldWords(name)} ${reason}`)))),
    answer: (_approval, _browser, { promotion }) => back(promotion, 'approved'),
  });
  form({
    method: 'post', path: '/console/pause', caller: onLoopback,
    input: (req) => formOf(req, noInput),
    run: (on, _browser, { promotion }) => setRouting(on, true, promotion.id),
    answer: (_routing, _browser, { promotion }) => back(promotion, 'paused'),
  });
  form({
    method: 'post', path: '/console/resume', caller: onLoopback,
    input: (req) => formOf(req, noInput),
    run: (on, _browser, { promotion }) => setRouting(on, false, promotion.id),
    answer: (_routing, _browser, { promotion }) => back(promotion, 'resumed'),
  });

  router.use(dashboardRefusals, pageErrors(ctx.logger, dashboardWarning));
  return router;
}
