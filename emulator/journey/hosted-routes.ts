/** The hosted fallback page, after a scan that stayed with the service. @see spec §1 rules */
import { Router, type Response } from 'express';
import type { Context } from '../context.js';
import type { ConsentInput } from '../domain/consent.js';
import { csrfValid } from '../pages/csrf.js';
import { type PageAnswer, type RedirectAnswer, type RowRequest, endpointTable, noInput } from '../endpoints.js';
import { field, formBody } from '../pages/http.js';
import type { Campaign } from '../store/promotions.js';
import { shownEntry } from '../use-cases/entry-shown.js';
import { type HostedOutcome, type HostedPageEntrant, type NotOpen, enterHosted, hostedEntrant, hostedState } from '../use-cases/journey/hosted-entry.js';
import { HOSTED_REASON_TEXT } from '../use-cases/journey/routing.js';
import { JOURNEY_ERRORS, JourneyError } from './errors.js';
import { pageContext, shownPage, signInRedirect } from './page-context.js';
import { type HostedView, hostedPage } from './views/hosted.js';
import { type PageContext, messagePage } from './views/shell.js';
import { refused } from '../wire-contract.js';

const CLOSED_TEXT = {
  ended: 'This promotion has ended.',
  not_live: 'This promotion is not running at the moment.',
  not_started: 'This promotion has not started yet.',
  paused: 'This promotion is paused.',
} as const;

interface HostedCaller {
  page: PageContext;
  code: string;
  who: HostedPageEntrant | NotOpen;
}

export function hostedRoutes(ctx: Context): Router {
  const router = Router();
  const page = endpointTable(router, { ctx });
  const form = endpointTable(router, { ctx, body: formBody });

  const caller = (req: RowRequest, res: Response): HostedCaller => {
    const shown = pageContext(ctx, req, res);
    const code = req.params.code!;
    return { page: shown, code, who: hostedEntrant(ctx, shown.collector, code) };
  };
  const notOpen = (reason: NotOpen, { page: shown, code }: HostedCaller): PageAnswer | RedirectAnswer => {
    if (reason === 'signed_out') return signInRedirect(`/q/${code}`);
    const scan = { href: `/q/${encodeURIComponent(code)}`, label: 'Scan the pack' };
    if (reason === 'scan_first') return shownPage(shown, 404, messagePage(shown, 'Scan the pack first', 'This page opens after you scan the pack.', scan));
    return shownPage(shown, 409, messagePage(shown, 'Play on the brand\'s website', 'This promotion runs on the brand\'s own website. Scan the pack to continue there.', scan));
  };
  const show = (shown: PageContext, { campaign, unit, reasons }: HostedPageEntrant, outcome: HostedOutcome): PageAnswer => {
    const { status, view } = viewOf(campaign, outcome);
    const shownReasons = reasons.map((reason) => HOSTED_REASON_TEXT[reason]);
    return shownPage(shown, status, hostedPage(shown, { promotion: campaign.promotion, brand: campaign.brand, packCode: unit.code, reasons: shownReasons, view }));
  };

  page({
    method: 'get', path: '/play/:code', caller,
    input: noInput,
    run: (on, { who }) => (typeof who === 'string' ? refused(who) : { entrant: who, outcome: hostedState(on, who) }),
    refusal: notOpen,
    answer: ({ entrant, outcome }, { page: shown }) => show(shown, entrant, outcome),
  });
  form({
    method: 'post', path: '/play/:code', caller,
    // The form is read, its CSRF token first, only once the page would open for this caller.
    input: (req, { who }): NotOpen | { entrant: HostedPageEntrant; consent: ConsentInput } => {
      if (typeof who === 'string') return who;
      if (!csrfValid(req)) throw new JourneyError('form_expired');
      const consent = { accepted: field(req.body, 'accepted') === 'yes', age_confirmed: field(req.body, 'age_confirmed') === 'yes', terms_version: field(req.body, 'terms_version') ?? '' };
      return { entrant: who, consent };
    },
    run: (on, _caller, form) => (typeof form === 'string' ? refused(form) : { entrant: form.entrant, outcome: enterHosted(on, form.entrant, form.consent) }),
    refusal: notOpen,
    answer: ({ entrant, outcome }, { page: shown }): PageAnswer | RedirectAnswer =>
      outcome.kind === 'entered' ? { status: 303, location: `/play/${encodeURIComponent(entrant.unit.code)}` } : show(shown, entrant, outcome),
  });

  return router;
}

function viewOf(campaign: Campaign, outcome: HostedOutcome): { status: number; view: HostedView } {
  switch (outcome.kind) {
    case 'open':
      return { status: 200, view: { kind: 'open', terms: outcome.terms } };
    case 'consent_required':
      return { status: 422, view: { kind: 'open', terms: outcome.terms, problem: `${outcome.problem} Accept the terms to enter.` } };
    case 'entered': {
      const { entry } = outcome;
      const prize = campaign.prizes.find((candidate) => candidate.id === entry.prize_id);
      return { status: 200, view: { kind: 'entered', entry: shownEntry(entry, prize) } };
    }
    case 'unavailable':
      return { status: outcome.closed.status, view: { kind: 'refused', message: CLOSED_TEXT[outcome.closed.reason] } };
    default:
      return { status: JOURNEY_ERRORS[outcome.kind].status, view: { kind: 'refused', message: JOURNEY_ERRORS[outcome.kind].message } };
  }
}
