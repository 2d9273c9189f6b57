/** Submitting an entry: sandbox scenarios and the production draw. @see spec §4.1, §4.2, §2.5 */
import type { Context } from '../context.js';
import { consentProblem } from '../domain/consent.js';
import { UNAVAILABLE_MESSAGES, availability, countryRefusal } from '../domain/eligibility.js';
import { recordSandboxEntry } from '../store/coverage.js';
import { type Entry, findEntryForSession, findProductionEntryForPack } from '../store/entries.js';
import { getPromotion, listPrizes, type Promotion } from '../store/promotions.js';
import type { Session } from '../store/sessions.js';
import { codeSuffix } from '../store/world.js';
import { type EntrySubject, drawEntry, insertOutcome } from './draw-entry.js';
import { ApiError } from './errors.js';
import type { Consent } from './schemas.js';
import { type SessionView, termsFor } from './serialize.js';
import { sessionView } from './sessions.js';

export function submitEntry(ctx: Context, session: Session, consent: Consent | undefined): SessionView {
  if (session.sandbox) return sandboxEntry(ctx, session);
  const { view, created } = ctx.db.transaction(() => productionEntry(ctx, session, consent)).immediate();
  if (created) ctx.events.emit('entry.created', { entryId: created.id });
  return view;
}

/** Sandbox results are synthetic: no pack, no draw, no stock, no scans. @see spec §4.1 rule 4 */
function sandboxEntry(ctx: Context, session: Session): SessionView {
  const now = ctx.clock.now();
  const scenario = session.scenario!;
  if (scenario === 'ineligible' || scenario === 'already_entered') {
    // Coverage counts the call even though the scenario refuses it.
    recordSandboxEntry(ctx.db, session.key_id, scenario, now);
    throw new ApiError(scenario);
  }
  return ctx.db
    .transaction(() => {
      recordSandboxEntry(ctx.db, session.key_id, scenario, now);
      const existing = findEntryForSession(ctx.db, session.id);
      if (existing) return sessionView(ctx, session, existing);
      const promotion = getPromotion(ctx.db, session.promotion_id);
      const delivery = { won: 'instant', pending: 'delayed', failed: 'failed' } as const;
      const mode = delivery[scenario as keyof typeof delivery];
      const won = mode && { prize: listPrizes(ctx.db, promotion.id)[0]!, delivery: mode, code: `SANDBOX-${codeSuffix(ctx.seed, `sandbox-code:${session.id}`, 8)}` };
      return sessionView(ctx, session, insertOutcome(ctx, subjectOf(session, promotion, null), won));
    })
    .immediate();
}

function productionEntry(ctx: Context, session: Session, consent: Consent | undefined): { view: SessionView; created?: Entry } {
  const promotion = getPromotion(ctx.db, session.promotion_id);
  const open = availability({ ...promotion.content, routingPaused: promotion.routing_paused }, ctx.clock.now());
  if (!open.available) throw new ApiError('unavailable', { status: open.status, message: UNAVAILABLE_MESSAGES[open.reason] });

  // One entry per pack: the same collector's retry gets its entry back, anyone else learns nothing. @see spec §2.5, §4.1 rule 5
  const existing = findProductionEntryForPack(ctx.db, promotion.id, session.unit_id!);
  if (existing && existing.collector_id !== session.collector_id) throw new ApiError('already_entered');
  if (existing) return { view: sessionView(ctx, session, existing) };

  if (countryRefusal(promotion.content.countries, session.country)) throw new ApiError('ineligible');
  const problem = consentProblem(termsFor(promotion, session.country), consent);
  if (problem) throw new ApiError('consent_required', { message: `${problem} Refresh the session's terms and ask the customer to accept them.` });

  const entry = drawEntry(ctx, { ...subjectOf(session, promotion, consent?.terms_version ?? null), unitId: session.unit_id! });
  return { view: sessionView(ctx, session, entry), created: entry };
}

function subjectOf(session: Session, promotion: Promotion, termsVersion: string | null): EntrySubject {
  return {
    promotion, sessionId: session.id, sandbox: session.sandbox === 1,
    collectorId: session.collector_id, unitId: session.unit_id, country: session.country, termsVersion,
  };
}
