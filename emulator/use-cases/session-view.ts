/**
 * A consumer session as the experience API answers it: its campaign and terms, the session's
 * entry as it stands now (a read never writes: domain/delivery.ts), and the admission an entry
 * would meet, before consent: the eligibility.
 */
import type { Context } from '../context.js';
import type { Admission } from '../domain/admission.js';
import { termsFor } from '../domain/terms.js';
import type { Terms } from '../fixture.js';
import { type Entry, findEntryForSession } from '../store/entries.js';
import type { Campaign } from '../store/promotions.js';
import type { Session } from '../store/sessions.js';
import { packAdmission } from './pack-entry.js';
import { sandboxRefusal } from './sandbox.js';

export interface SessionView {
  session: Session;
  campaign: Campaign;
  terms: Terms;
  /** What an entry would answer now, before consent: the eligibility. */
  admission: Admission;
  /** The session's entry as it stands now. */
  entry: Entry | undefined;
}

/** The session as a read shows it: its entry found, and the admission judged now. */
export function sessionViewNow(ctx: Context, session: Session, campaign: Campaign): SessionView {
  const entry = findEntryForSession(ctx.db, session.id, ctx.clock.now());
  const terms = termsFor(campaign.promotion, session.country);
  if (session.sandbox) return { session, campaign, terms, admission: sandboxRefusal(session.scenario) ?? { kind: 'open', terms }, entry };
  // In production the session's own entry is its pack's one entry.
  const entrant = { campaign, channel: 'agency' as const, collectorId: session.collector_id, unitId: session.unit_id!, country: session.country };
  return { session, campaign, terms, admission: packAdmission(ctx, entrant, entry).admission, entry };
}

/**
 * The session as an entry answers it: the entry it made or found (as it stands now: store/entries.ts),
 * and the admission it was judged by, sandbox or production, which its eligibility shows.
 */
export function sessionViewAfterEntry(session: Session, campaign: Campaign, admission: Admission, entry: Entry | undefined): SessionView {
  return { session, campaign, terms: termsFor(campaign.promotion, session.country), admission, entry };
}
