/**
 * The dashboard's refusals before a form's action runs, as data on the one error base (errors.ts):
 * a caller off loopback, a form whose CSRF value does not verify, a query or form it cannot read,
 * a promotion it does not know. A row's caller or input throws them, and `dashboardRefusals`
 * answers each with a page that says what to do; what an action itself refuses (an unknown key,
 * a bad callback URL) is shown on the dashboard instead.
 */
import { type ErrorSpec, PlumbingError, errorClass } from '../errors.js';
import { html } from '../pages/html.js';
import { refusalPages } from '../pages/http.js';
import { warningPage } from '../pages/layout.js';
import { DASHBOARD_NAV } from './views/dashboard.js';

/** Each refusal's page: its status, its title, and what to do. */
export const DASHBOARD_ERRORS = {
  /** A caller neither on loopback nor presenting the control token (control/guard.ts). */
  not_loopback: {
    status: 403, title: 'Dashboard not available',
    message: 'The dashboard answers on loopback only. Open it at 127.0.0.1 or localhost on the machine that runs the emulator, or use the CLI with --control-token.',
  },
  /** A form whose CSRF value does not verify (pages/csrf.ts). */
  form_expired: { status: 403, title: 'This form has expired', message: 'Reload the dashboard and send the form again.' },
  /** A query or form field that validation.ts refuses: its message says which. */
  invalid_request: { status: 400, title: 'Bad request', message: 'The request could not be read.' },
  /** `?promotion=` names no promotion. */
  not_found: { status: 404, title: 'No such promotion', message: 'The dashboard lists every promotion: open one from there.' },
} as const satisfies Readonly<Record<string, ErrorSpec & { title: string }>>;

export class DashboardError extends errorClass(DASHBOARD_ERRORS) {}

/** What a page or form says, read by validation.ts's rules: what they cannot read is the dashboard's 400 page, with their message. */
export function readOr400<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof PlumbingError)) throw error;
    throw new DashboardError('invalid_request', { message: error.message });
  }
}

/** A page in the dashboard's frame that says what went wrong. */
export const dashboardWarning = warningPage(DASHBOARD_NAV);

/** Answers a dashboard refusal with its page. */
export const dashboardRefusals = refusalPages(DashboardError, (refusal) => ({ page: dashboardWarning(DASHBOARD_ERRORS[refusal.code].title, html`<p>${refusal.message}</p>`) }));
