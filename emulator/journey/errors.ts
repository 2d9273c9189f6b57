/**
 * The journey's refusals as data, on the one error base (errors.ts). The authorize page's (worded
 * by its rows from the use case's refusal) and an expired form's are answered by
 * `journeyRefusals` as a page that says what happened and where to go next: never a redirect, so
 * nothing unvalidated leaves the service. The hosted page shows its own (a pack already entered, a
 * country not admitted) in place of its form.
 */
import type { ErrorRequestHandler } from 'express';
import type { Context } from '../context.js';
import { REQUEST_TOKEN_LIFETIME_MS, inWords } from '../domain/limits.js';
import { type ErrorTable, errorClass } from '../errors.js';
import { refusalPages } from '../pages/http.js';
import { REWARDS_PATH } from '../use-cases/entry-shown.js';
import type { AuthorizeRefusal } from '../use-cases/journey/authorize.js';
import { pageContext } from './page-context.js';
import { messagePage } from './views/shell.js';

export const JOURNEY_ERRORS = {
  /** The authorize page: no collector is signed in. @see spec §4.3 step 5 */
  not_signed_in: { status: 401, message: 'You are not signed in any more. Scan the pack again to start over.' },
  /** The authorize page: a parameter is missing or malformed; the message says which. @see spec §4.3 step 4, §5 rule 4 */
  invalid_request: { status: 400, message: 'This link is incomplete or malformed, so it cannot be continued. Scan the pack again.' },
  unknown_request: { status: 400, message: 'This request is not known to the service. Scan the pack again.' },
  other_collector: { status: 403, message: 'This request was made for another account. Sign in with that account or scan the pack again.' },
  used_request: { status: 410, message: 'This request was already used. Scan the pack again to start over.' },
  expired_request: { status: 410, message: `This request has expired (they last ${inWords(REQUEST_TOKEN_LIFETIME_MS)}). Scan the pack again to start over.` },
  voided_request: { status: 410, message: 'The brand changed where this promotion runs since this request was made. Scan the pack again to start over.' },
  /** A form whose CSRF value does not verify (pages/csrf.ts). */
  form_expired: { status: 403, message: 'Reload the page and send the form again.' },
  /** The hosted page: the pack's entry is another collector's. @see spec §4.1 rule 5 */
  already_entered: { status: 409, message: 'This pack has already been entered and cannot be entered again.' },
  /** The hosted page: the collector's country is not admitted. @see spec §4.1 rule 2 */
  ineligible: { status: 403, message: 'This promotion is not available in your country.' },
} as const satisfies ErrorTable;

export class JourneyError extends errorClass(JOURNEY_ERRORS) {}

/** The authorize page's refusal as its error; a malformed request's message names the parameter that is wrong. */
export function authorizeError({ code, problem }: AuthorizeRefusal): JourneyError {
  return new JourneyError(code, problem === undefined ? {} : { message: `${JOURNEY_ERRORS[code].message} (${problem})` });
}

/** Answers a journey refusal with its page: an expired form asks to send it again; an authorize refusal cannot continue and leads to the Rewards page. */
export function journeyRefusals(ctx: Context): ErrorRequestHandler {
  return refusalPages(JourneyError, (refusal, req, res) => {
    const shown = pageContext(ctx, req, res);
    const page = refusal.code === 'form_expired'
      ? messagePage(shown, 'This form has expired', refusal.message)
      : messagePage(shown, 'This request cannot continue', refusal.message, { href: REWARDS_PATH, label: 'Go to your Rewards' });
    return { page, cookies: shown.form.cookies() };
  });
}
