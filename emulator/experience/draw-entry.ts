/**
 * Storing an entry with its outcome, shared by agency entries (sandbox and production) and the
 * service's own hosted page, so the draw, stock, budget and delivery rules live in one place.
 * @see spec §1 (the service alone decides the outcome), §3
 */
import type { Context } from '../context.js';
import { canAward, drawNumber, initialDelivery, prizeForNumber } from '../domain/draw.js';
import { type Entry, insertEntry } from '../store/entries.js';
import { type Prize, type Promotion, awardPrize, awardState, getBrand, listPrizes } from '../store/promotions.js';
import { prizeCode } from '../store/world.js';

export interface EntrySubject {
  promotion: Promotion;
  sessionId: number;
  sandbox: boolean;
  collectorId: number | null;
  unitId: number | null;
  country: string | null;
  termsVersion: string | null;
}

/** The production draw for a pack: its seeded number picks a prize, awarded while stock and budget last. */
export function drawEntry(ctx: Context, subject: EntrySubject & { unitId: number }): Entry {
  const { promotion, unitId } = subject;
  const drawn = prizeForNumber(drawNumber(ctx.seed, promotion.id, unitId), listPrizes(ctx.db, promotion.id));
  if (!drawn) return insertOutcome(ctx, subject);
  const { stock, budgetLeft } = awardState(ctx.db, promotion, drawn);
  if (!canAward(drawn, stock, budgetLeft) || !awardPrize(ctx.db, promotion.id, drawn)) return insertOutcome(ctx, subject);
  const code = prizeCode(ctx.seed, getBrand(ctx.db, promotion.brand_id).prefix, unitId);
  return insertOutcome(ctx, subject, { prize: drawn, delivery: drawn.delivery, code });
}

/** Stores a won entry in the given delivery mode, or a non-winning one when no prize is given. */
export function insertOutcome(ctx: Context, subject: EntrySubject, won?: { prize: Prize; delivery: Prize['delivery']; code: string }): Entry {
  const now = ctx.clock.now();
  const base = {
    promotion_id: subject.promotion.id, session_id: subject.sessionId, sandbox: subject.sandbox ? 1 : 0,
    collector_id: subject.collectorId, unit_id: subject.unitId, country: subject.country, terms_version: subject.termsVersion, created_at: now,
  };
  if (!won) {
    return insertEntry(ctx.db, { ...base, state: 'lost', prize_id: null, prize_name: null, codes: '[]', redemption_url: null, delivery_state: 'none', delivery_due_at: null, delivery_outcome: null });
  }
  const start = initialDelivery(won.delivery);
  return insertEntry(ctx.db, {
    ...base, state: start.state, prize_id: won.prize.id, prize_name: won.prize.name, codes: JSON.stringify([won.code]), redemption_url: won.prize.redemption_url,
    delivery_state: start.deliveryState, delivery_outcome: start.settlesAs ?? null,
    delivery_due_at: start.settlesAs ? now + subject.promotion.content.delivery_delay_seconds * 1000 : null,
  });
}
