/** The hosted fallback page, after a scan that stayed with the service. @see spec §1 rules */
import { Router, type Request, type Response } from 'express';
import type { Context } from '../context.js';
import { csrfValid } from '../pages/csrf.js';
import { field, formBody, sendPage } from '../pages/http.js';
import { type Campaign, loadCampaign } from '../store/promotions.js';
import { shownEntry } from '../use-cases/entry-shown.js';
import { findUnitByCode, hasScanned } from '../store/units.js';
import { type HostedEntrant, type HostedOutcome, enterHosted, hostedState } from '../use-cases/journey/hosted-entry.js';
import { HOSTED_REASON_TEXT } from '../use-cases/journey/routing.js';
import { JOURNEY_ERRORS, JourneyError } from './errors.js';
import { pageContext, signInFirst } from './page-context.js';
import { routeFor } from '../use-cases/journey/scan.js';
import { type HostedView, hostedPage } from './views/hosted.js';
import { type PageContext, messagePage } from './views/shell.js';

const CLOSED_TEXT = {
  ended: 'This promotion has ended.',
  not_live: 'This promotion is not running at the moment.',
  not_started: 'This promotion has not started yet.',
  paused: 'This promotion is paused.',
} as const;

type Entrant = HostedEntrant & { reasons: string[] };

export function hostedRoutes(ctx: Context): Router {
  const router = Router();

  /** The collector, pack and promotion of a hosted page; it opens only after this collector scanned the pack. */
  const entrant = (page: PageContext, code: string): Entrant | 'scan_first' | 'agency' => {
    const unit = findUnitByCode(ctx.db, code);
    if (!unit || unit.recalled || !page.collector || !hasScanned(ctx.db, page.collector.id, unit.id)) return 'scan_first';
    if (unit.promotion_id === null) return 'scan_first';
    const campaign = loadCampaign(ctx.db, unit.promotion_id);
    const route = routeFor(ctx, campaign.promotion, unit, page.collector);
    if (route.to === 'agency') return 'agency';
    const reasons = route.reasons.map((reason) => HOSTED_REASON_TEXT[reason]);
    return { campaign, unit, collector: page.collector, reasons };
  };

  const show = (page: PageContext, who: Entrant, outcome: HostedOutcome) => {
    const { status, view } = viewOf(who.campaign, outcome);
    sendPage(page.res, status, hostedPage(page, { promotion: who.campaign.promotion, brand: who.campaign.brand, packCode: who.unit.code, reasons: who.reasons, view }));
  };

  const withEntrant = (handler: (page: PageContext, who: Entrant) => void) => (req: Request, res: Response) => {
    const page = pageContext(ctx, req, res);
    const code = req.params.code as string;
    if (!page.collector) return signInFirst(res, `/q/${code}`);
    const who = entrant(page, code);
    const scan = { href: `/q/${encodeURIComponent(code)}`, label: 'Scan the pack' };
    if (who === 'scan_first') return sendPage(res, 404, messagePage(page, 'Scan the pack first', 'This page opens after you scan the pack.', scan));
    if (who === 'agency') return sendPage(res, 409, messagePage(page, 'Play on the brand\'s website', 'This promotion runs on the brand\'s own website. Scan the pack to continue there.', scan));
    handler(page, who);
  };

  router.get('/play/:code', withEntrant((page, who) => show(page, who, hostedState(ctx, who))));

  router.post('/play/:code', formBody, withEntrant((page, who) => {
    if (!csrfValid(page.req)) throw new JourneyError('form_expired');
    const body = page.req.body as unknown;
    const outcome = enterHosted(ctx, who, { accepted: field(body, 'accepted') === 'yes', age_confirmed: field(body, 'age_confirmed') === 'yes', terms_version: field(body, 'terms_version') ?? '' });
    if (outcome.kind === 'entered') return page.res.redirect(303, `/play/${encodeURIComponent(who.unit.code)}`);
    show(page, who, outcome);
  }));

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
