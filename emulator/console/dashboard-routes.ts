/**
 * The dashboard's page, its script and its forms, as rows of two tables (endpoints.ts): every
 * promotion listed, each opened at `/?promotion=<slug>` (the default one at `/`). Forms post here
 * with the same `?promotion=`, call the same use cases as the JSON API, and come back to the
 * promotion's page (a one-time secret or a refusal is shown at once instead).
 */
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { type PageAnswer, type RedirectAnswer, type RowRequest, anyone, endpointTable, noInput, scriptAnswer } from '../endpoints.js';
import { csrfValid } from '../pages/csrf.js';
import { formBody, pageErrors } from '../pages/http.js';
import { latestInteractions } from '../store/interaction-reads.js';
import { knownOutcomePacks } from '../store/known-packs.js';
import { type Promotion, defaultPromotionId, findPromotion, loadCampaign } from '../store/promotions.js';
import { listSinks } from '../store/sinks.js';
import { approve } from '../use-cases/console/approval.js';
import { setCallbacks } from '../use-cases/console/callbacks.js';
import { type KeyRefusal, createKey, revokeKey, rotateKey } from '../use-cases/console/keys.js';
import { setRouting } from '../use-cases/console/routing.js';
import { IdText, queryRule, validate } from '../validation.js';
import { DashboardError, dashboardRefusals, readOr400, warningPage } from './dashboard-errors.js';
import { logRows, overview, promotionRef, promotionSummaries } from '../use-cases/console/reads.js';
import { LIVE_LOG_SCRIPT } from './live-log.js';
import { type DashboardView, LOG_SHOWN, type Notice, dashboardPage, pageQuery } from './views/dashboard.js';

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

/** Who the page and its forms answer: a browser on loopback, whose request and answer carry the forms' CSRF cookie. */
interface Browser {
  req: Request;
  res: Response;
}

/** A form once read: the promotion it acts on, and its own fields. */
interface Form<Fields> {
  promotion: Promotion;
  fields: Fields;
}

const warning = (text: string, items?: string[]): Notice => ({ kind: 'warning', text, ...(items ? { items } : {}) });

/** `trusted` is the control plane's guard (control/guard.ts), which app.ts hands in: the console stands below the control plane. */
export function dashboardRouter(ctx: Context, trusted: (req: Request) => boolean): Router {
  const router = Router();
  const page = endpointTable(router, { ctx });
  const form = endpointTable(router, { ctx, body: formBody });

  /** A caller off loopback is refused before anything it sends is read. */
  const onLoopback = (req: RowRequest, res: Response): Browser => {
    if (!trusted(req)) throw new DashboardError('not_loopback');
    return { req, res };
  };
  /** The promotion a page or form is about: `?promotion=`, or the default one. */
  const promotionNamed = (ref: string | undefined): Promotion => {
    const promotion = findPromotion(ctx.db, ref ?? String(defaultPromotionId(ctx.db)));
    if (!promotion) throw new DashboardError('not_found');
    return promotion;
  };
  /** Every form reads its CSRF value first, then `?promotion=`, then its own fields. */
  const formOf = <Fields>(req: RowRequest, fields: () => Fields): Form<Fields> => {
    if (!csrfValid(req)) throw new DashboardError('form_expired');
    const promotion = promotionNamed(readOr400(() => FORM_QUERY(req.query)).promotion);
    return { promotion, fields: readOr400(fields) };
  };

  /** What the promotion's page shows, read as it is now. */
  const viewOf = (promotion: Promotion): DashboardView => ({
    data: overview(ctx, promotion.id), promotions: promotionSummaries(ctx), log: logRows(ctx, latestInteractions(ctx.db, LOG_SHOWN)),
    packs: knownOutcomePacks(ctx.db, ctx.seed, loadCampaign(ctx.db, promotion.id)),
    sinks: listSinks(ctx.db), clock: ctx.clock.state(),
    urls: { public: ctx.config.baseUrl, local: ctx.config.localUrl ?? ctx.config.baseUrl },
  });
  /** The promotion's page with what just happened (a one-time secret, what went wrong), and what a refused form had typed. */
  const shown = ({ req, res }: Browser, promotion: Promotion, status: number, notice?: Notice, callbackInput?: DashboardView['callbackInput']): PageAnswer =>
    ({ status, page: dashboardPage(req, res, { ...viewOf(promotion), notice, callbackInput }) });
  /** Back to the promotion's page, which says what was done. */
  const back = (promotion: Promotion, done: Done): RedirectAnswer => ({ status: 303, location: `/?${pageQuery(promotionRef(ctx, promotion))}done=${done}` });

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
    run: (_on, _browser, { done }) => ({ notice: isDone(done) ? { kind: 'success', text: DONE[done] } as const : undefined }),
    answer: ({ notice }, browser, { promotion }) => shown(browser, promotion, 200, notice),
  });

  form({
    method: 'post', path: '/console/keys', caller: onLoopback,
    input: (req) => formOf(req, () => validate(KeyForm, req.body, { hint: 'The environment is sandbox or production.' }).environment),
    run: (on, _browser, { promotion, fields: environment }) => createKey(on, environment, promotion.id),
    answer: (key, browser, { promotion }) => shown(browser, promotion, 201, { kind: 'success', text: `Created ${key.environment} key #${key.id}.`, secret: key.secret }),
  });
  /** What the forms that change the key their path names share: they differ in the change and its answer. */
  const keyChange = {
    method: 'post', caller: onLoopback,
    // The key's id is its digits exactly, as the JSON API reads it.
    input: (req: RowRequest) => formOf(req, () => validate(IdText, req.params.id, { hint: 'A key id is a whole number such as 12.' })),
    refusal: (reason: KeyRefusal, browser: Browser, { promotion }: Form<number>) => (reason === 'unknown_key'
      ? shown(browser, promotion, 404, warning('No such key.'))
      : shown(browser, promotion, 409, warning('That key is revoked; create a new key instead.'))),
  } as const;
  form({
    ...keyChange, path: '/console/keys/:id/rotate',
    run: (on, _browser, { promotion, fields: id }) => rotateKey(on, id, promotion.id),
    answer: (key, browser, { promotion }) => shown(browser, promotion, 201, {
      kind: 'success', text: `Created ${key.environment} key #${key.id} to replace #${key.replaces}. Revoke #${key.replaces} once the agency uses the new key.`, secret: key.secret,
    }),
  });
  form({
    ...keyChange, path: '/console/keys/:id/revoke',
    run: (on, _browser, { promotion, fields: id }) => revokeKey(on, id, promotion.id),
    answer: (_revoked, _browser, { promotion }) => back(promotion, 'revoked'),
  });

  form({
    method: 'post', path: '/console/callbacks', caller: onLoopback,
    input: (req) => formOf(req, () => validate(CallbacksForm, req.body, { hint: 'The callback URLs are text.' })),
    run: (on, _browser, { promotion, fields: { production, preview } }) => setCallbacks(on, { production, ...(preview.trim() ? { preview } : {}) }, promotion.id),
    refusal: (problems, browser, { promotion, fields }) =>
      shown(browser, promotion, 400, warning('The callback URLs were not saved.', Object.entries(problems).map(([name, reasons]) => `The ${name} callback URL ${reasons.join('; ')}.`)), fields),
    answer: (change, _browser, { promotion }) => back(promotion, change.changed ? 'callbacks_cleared' : 'callbacks'),
  });
  form({
    method: 'post', path: '/console/approve', caller: onLoopback,
    input: (req) => formOf(req, noInput),
    run: (on, _browser, { promotion }) => approve(on, promotion.id),
    refusal: (missing, browser, { promotion }) => shown(browser, promotion, 409, warning('Not approved yet. Still missing:',
      Object.entries(missing).flatMap(([name, reasons]) => reasons.map((reason) => (name === 'checklist' ? reason : `${name.replace('_', ' ')} ${reason}`))))),
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

  router.use(dashboardRefusals, pageErrors(ctx.logger, warningPage));
  return router;
}
