/**
 * The dashboard's pages and forms. Forms post here, call the same lifecycle functions as the
 * JSON API, and come back to `/` (a one-time secret or a refusal is shown at once instead).
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Context } from '../context.js';
import { csrfValid } from '../pages/csrf.js';
import { field, formBody, pageErrors, sendPage } from '../pages/http.js';
import { html } from '../pages/html.js';
import { layout } from '../pages/layout.js';
import { latestInteractions } from '../store/interaction-tail.js';
import { trustedCaller } from '../control/guard.js';
import { type KeyChange, approve, createKey, logRows, overview, revokeKey, rotateKey, setCallbacks, setRouting } from './lifecycle.js';
import { LIVE_LOG_SCRIPT } from './live-log.js';
import { DASHBOARD_NAV, type Notice, dashboardPage } from './views/dashboard.js';

const LOG_ROWS = 25;

/** Outcomes named in `/?done=`: the page shows fixed text, never text from the URL. */
const DONE: Record<string, string> = {
  paused: 'Routing paused: later scans go to the hosted page. Entries and prizes stay.',
  resumed: 'Routing resumed.',
  revoked: 'Key revoked.',
  approved: 'The agency experience is approved.',
  callbacks: 'Callback URLs saved.',
  callbacks_cleared: 'Callback URLs saved. The approval and the checklist were cleared: the agency runs the six sandbox scenarios again.',
};

export function dashboardRouter(ctx: Context): Router {
  const router = Router();
  const message = (title: string, text: string) => layout({ title, body: html`<section class="warning"><p>${text}</p></section>`, nav: DASHBOARD_NAV });

  router.get('/console/live-log.js', (_req, res) => {
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }).send(LIVE_LOG_SCRIPT);
  });

  const guard: RequestHandler = (req, res, next) => {
    if (trustedCaller(req, ctx.config.controlToken)) return next();
    sendPage(res, 403, message('Dashboard not available', 'The dashboard answers on loopback only. Open it at 127.0.0.1 or localhost on the machine that runs the emulator, or use the CLI with --control-token.'));
  };

  const render = (req: Request, res: Response, status: number, notice?: Notice, callbackInput?: { production: string; preview: string }) => {
    sendPage(res, status, dashboardPage(req, res, overview(ctx), logRows(ctx, latestInteractions(ctx.db, LOG_ROWS)), notice, callbackInput));
  };

  router.get('/', guard, (req, res) => {
    const done = field(req.query, 'done');
    render(req, res, 200, done && DONE[done] ? { kind: 'success', text: DONE[done] } : undefined);
  });

  /** Every form: CSRF first, then the action. */
  const form = (path: string, action: (req: Request, res: Response) => void) =>
    router.post(path, guard, formBody, (req, res) => (csrfValid(req) ? action(req, res) : sendPage(res, 403, message('This form has expired', 'Reload the dashboard and send the form again.'))));

  const keyChange = <T>(req: Request, res: Response, change: KeyChange<T>, onDone: (value: T) => void) => {
    if (change.ok) return onDone(change.value);
    render(req, res, change.problem === 'unknown_key' ? 404 : 409, { kind: 'warning', text: change.problem === 'unknown_key' ? 'No such key.' : 'That key is revoked; create a new key instead.' });
  };

  form('/console/keys', (req, res) => {
    const environment = field(req.body, 'environment') === 'production' ? 'production' : 'sandbox';
    const key = createKey(ctx, environment);
    render(req, res, 201, { kind: 'success', text: `Created ${environment} key #${key.id}.`, secret: key.secret });
  });

  form('/console/keys/:id/rotate', (req, res) =>
    keyChange(req, res, rotateKey(ctx, Number(req.params.id)), (key) =>
      render(req, res, 201, { kind: 'success', text: `Created ${key.environment} key #${key.id} to replace #${key.replaces}. Revoke #${key.replaces} once the agency uses the new key.`, secret: key.secret }),
    ),
  );

  form('/console/keys/:id/revoke', (req, res) => keyChange(req, res, revokeKey(ctx, Number(req.params.id)), () => res.redirect(303, '/?done=revoked')));

  form('/console/callbacks', (req, res) => {
    const production = field(req.body, 'production') ?? '';
    const preview = field(req.body, 'preview') ?? '';
    const change = setCallbacks(ctx, { production, ...(preview.trim() ? { preview } : {}) });
    if (!change.ok) {
      const items = Object.entries(change.problems).map(([name, reasons]) => `The ${name} callback URL ${reasons.join('; ')}.`);
      return render(req, res, 400, { kind: 'warning', text: 'The callback URLs were not saved.', items }, { production, preview });
    }
    res.redirect(303, `/?done=${change.changed ? 'callbacks_cleared' : 'callbacks'}`);
  });

  form('/console/approve', (req, res) => {
    const approval = approve(ctx);
    if (approval.ok) return res.redirect(303, '/?done=approved');
    const items = Object.entries(approval.missing).flatMap(([name, reasons]) => reasons.map((reason) => (name === 'checklist' ? reason : `${name.replace('_', ' ')} ${reason}`)));
    render(req, res, 409, { kind: 'warning', text: 'Not approved yet. Still missing:', items });
  });

  form('/console/pause', (_req, res) => {
    setRouting(ctx, true);
    res.redirect(303, '/?done=paused');
  });

  form('/console/resume', (_req, res) => {
    setRouting(ctx, false);
    res.redirect(303, '/?done=resumed');
  });

  router.use(pageErrors(ctx.logger, (title, text) => layout({ title, body: html`<section class="warning">${text}</section>`, nav: DASHBOARD_NAV })));
  return router;
}
