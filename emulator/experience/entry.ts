/** Submitting an entry: sandbox scenarios and the production draw. @see spec §4.1, §4.2, §2.5 */
import type { Context } from '../context.js';
import { consentProblem } from '../domain/consent.js';
import { canAward, drawNumber, initialDelivery, prizeForNumber } from '../domain/draw.js';
import { UNAVAILABLE_MESSAGES, availability, countryRefusal } from '../domain/eligibility.js';
import { recordSandboxEntry } from '../store/coverage.js';
import { type Entry, type NewEntry, findEntryForSession, findProductionEntryForPack, insertEntry } from '../store/entries.js';
import { awardPrize, getBrand, getPromotion, listPrizes, type Prize, type Promotion } from '../store/promotions.js';
import type { Session } from '../store/sessions.js';
import { codeSuffix } from '../store/world.js';
import { ApiError } from './errors.js';
import type { Consent } from './schemas.js';
import { type SessionView, termsFor } from './serialize.js';
import { sessionView } from './sessions.js';

export function submitEntry(ctx: Context, session: Session, consent: Consent | undefined): SessionView {
  if (session.sandbox) {
    // Coverage is recorded even when the scenario answers 403 or 409: the call was made.
    recordSandboxEntry(ctx.db, session.key_id, session.scenario!, ctx.clock.now());
    return ctx.db.transaction(() => sandboxEntry(ctx, session)).immediate();
  }
  const { view, created } = ctx.db.transaction(() => productionEntry(ctx, session, consent)).immediate();
  if (created) ctx.events.emit('entry.created', { entryId: created.id });
  return view;
}

/** Sandbox results are synthetic: no pack, no draw, no stock, no scans. @see spec §4.1 rule 4 */
function sandboxEntry(ctx: Context, session: Session): SessionView {
  const now = ctx.clock.now();
  if (session.scenario === 'ineligible') throw new ApiError('ineligible');
  if (session.scenario === 'already_entered') throw new ApiError('already_entered');
  const existing = findEntryForSession(ctx.db, session.id);
  if (existing) return sessionView(ctx, session, existing);

  const promotion = getPromotion(ctx.db, session.promotion_id);
  const prize = listPrizes(ctx.db, promotion.id)[0]!;
  const delivery = { won: 'instant', pending: 'delayed', failed: 'failed' } as const;
  const mode = delivery[session.scenario as keyof typeof delivery];
  const entry = insertEntry(ctx.db, {
    ...entryBase(session, now),
    ...(mode ? wonEntry(promotion, prize, mode, `SANDBOX-${codeSuffix(ctx.seed, `sandbox-code:${session.id}`, 8)}`, now) : lostEntry()),
  });
  return sessionView(ctx, session, entry);
}

function productionEntry(ctx: Context, session: Session, consent: Consent | undefined): { view: SessionView; created?: Entry } {
  const now = ctx.clock.now();
  const promotion = getPromotion(ctx.db, session.promotion_id);
  const open = availability({ ...promotion.content, routingPaused: promotion.routing_paused }, now);
  if (!open.available) throw new ApiError('unavailable', { status: open.status, message: UNAVAILABLE_MESSAGES[open.reason] });

  // One entry per pack: the same collector's retry gets its entry back, anyone else learns nothing. @see spec §2.5, §4.1 rule 5
  const existing = findProductionEntryForPack(ctx.db, promotion.id, session.unit_id!);
  if (existing && existing.collector_id !== session.collector_id) throw new ApiError('already_entered');
  if (existing) return { view: sessionView(ctx, session, existing) };

  if (countryRefusal(promotion.content.countries, session.country)) throw new ApiError('ineligible');
  const terms = termsFor(promotion, session.country);
  const problem = consentProblem(terms, consent);
  if (problem) throw new ApiError('consent_required', { message: `${problem} Refresh the session's terms and ask the customer to accept them.` });

  const prizes = listPrizes(ctx.db, promotion.id);
  const drawn = prizeForNumber(drawNumber(ctx.seed, promotion.id, session.unit_id!), prizes);
  const awarded = drawn && canAward(drawn, promotion.content.budget - promotion.budget_spent) && awardPrize(ctx.db, promotion.id, drawn);
  const brand = getBrand(ctx.db, promotion.brand_id);
  const entry = insertEntry(ctx.db, {
    ...entryBase(session, now),
    terms_version: consent?.terms_version ?? null,
    ...(awarded ? wonEntry(promotion, drawn, drawn.delivery, `${brand.prefix}-${codeSuffix(ctx.seed, `prize-code:${session.unit_id}`, 10)}`, now) : lostEntry()),
  });
  return { view: sessionView(ctx, session, entry), created: entry };
}

function entryBase(session: Session, now: number): Omit<NewEntry, 'state' | 'prize_id' | 'prize_name' | 'codes' | 'redemption_url' | 'delivery_state' | 'delivery_due_at' | 'delivery_outcome'> {
  return {
    promotion_id: session.promotion_id, session_id: session.id, sandbox: session.sandbox,
    collector_id: session.collector_id, unit_id: session.unit_id, country: session.country, terms_version: null, created_at: now,
  };
}

function wonEntry(promotion: Promotion, prize: Prize, mode: Prize['delivery'], code: string, now: number) {
  const start = initialDelivery(mode);
  return {
    state: start.state, prize_id: prize.id, prize_name: prize.name, codes: JSON.stringify([code]), redemption_url: prize.redemption_url,
    delivery_state: start.deliveryState, delivery_outcome: start.settlesAs ?? null,
    delivery_due_at: start.settlesAs ? now + promotion.content.delivery_delay_seconds * 1000 : null,
  };
}

function lostEntry() {
  return { state: 'lost' as const, prize_id: null, prize_name: null, codes: '[]', redemption_url: null, delivery_state: 'none' as const, delivery_due_at: null, delivery_outcome: null };
}
