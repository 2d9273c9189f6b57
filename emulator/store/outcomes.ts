/**
 * Storing an entry with its outcome, shared by agency entries (sandbox and production) and the
 * service's own hosted page, so the draw, stock, budget and delivery rules are applied in one place.
 * The caller has admitted the entry (domain/admission.ts) first.
 * @see spec §1 (the service alone decides the outcome), §3
 */
import { canAward, drawNumber, initialDelivery, prizeForNumber } from '../domain/draw.js';
import type { Db } from './db.js';
import { type Entry, insertEntry } from './entries.js';
import { type Campaign, type Prize, awardPrize, awardState } from './promotions.js';
import { prizeCode } from './world.js';

/** Where and when an entry is written: the seed makes its draw, the clock its times. */
export interface Writer {
  db: Db;
  seed: string;
  now: number;
}

export interface EntrySubject {
  campaign: Campaign;
  sessionId: number;
  sandbox: boolean;
  collectorId: number | null;
  unitId: number | null;
  country: string | null;
  termsVersion: string | null;
}

/** The production draw for a pack: its seeded number picks a prize, awarded while stock and budget last. */
export function drawEntry(writer: Writer, subject: EntrySubject & { unitId: number }): Entry {
  const { campaign, unitId } = subject;
  const { promotion, prizes, brand } = campaign;
  const drawn = prizeForNumber(drawNumber(writer.seed, promotion.id, unitId), prizes);
  if (!drawn) return insertOutcome(writer, subject);
  const { stock, budgetLeft } = awardState(writer.db, promotion, drawn);
  if (!canAward(drawn, stock, budgetLeft) || !awardPrize(writer.db, promotion.id, drawn)) return insertOutcome(writer, subject);
  return insertOutcome(writer, subject, { prize: drawn, delivery: drawn.delivery, code: prizeCode(writer.seed, brand.prefix, unitId) });
}

/** Stores a won entry in the given delivery mode, or a non-winning one when no prize is given. */
export function insertOutcome(writer: Writer, subject: EntrySubject, won?: { prize: Prize; delivery: Prize['delivery']; code: string }): Entry {
  const { now } = writer;
  const base = {
    promotion_id: subject.campaign.promotion.id, session_id: subject.sessionId, sandbox: subject.sandbox ? 1 : 0,
    collector_id: subject.collectorId, unit_id: subject.unitId, country: subject.country, terms_version: subject.termsVersion, created_at: now,
  };
  if (!won) {
    return insertEntry(writer.db, { ...base, state: 'lost', prize_id: null, prize_name: null, codes: '[]', redemption_url: null, delivery_state: 'none', delivery_due_at: null, delivery_outcome: null });
  }
  const start = initialDelivery(won.delivery);
  return insertEntry(writer.db, {
    ...base, state: start.state, prize_id: won.prize.id, prize_name: won.prize.name, codes: JSON.stringify([won.code]), redemption_url: won.prize.redemption_url,
    delivery_state: start.deliveryState, delivery_outcome: start.settlesAs ?? null,
    delivery_due_at: start.settlesAs ? now + subject.campaign.promotion.content.delivery_delay_seconds * 1000 : null,
  });
}
