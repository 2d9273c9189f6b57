/**
 * Storing an entry with its outcome, shared by agency entries (sandbox and production) and the
 * service's own hosted page, so the draw, stock, budget and delivery rules are applied in one place.
 * The caller has admitted the entry (domain/admission.ts) first.
 * @see spec §1 (the service alone decides the outcome), §3
 */
import { canAward, drawNumber, initialDelivery, prizeForNumber } from '../domain/draw.js';
import { DELIVERED_CODE } from '../domain/mechanics.js';
import { claimPoolCode } from './code-pool.js';
import type { Db } from './db.js';
import { type Entry, insertEntry } from './entries.js';
import { type Campaign, type Prize, awardPrize, awardState } from './promotions.js';
import { prizeCode } from './code-text.js';

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

/**
 * The production draw for a pack: its seeded number picks a prize (a code-unlock or content
 * promotion's odds add up to 1, so one is always drawn), awarded while stock, budget and, for a
 * code unlock, the pool last.
 */
export function drawEntry(writer: Writer, subject: EntrySubject & { unitId: number }): Entry {
  const { campaign, unitId } = subject;
  const { promotion, prizes } = campaign;
  const drawn = prizeForNumber(drawNumber(writer.seed, promotion.id, unitId), prizes);
  if (!drawn) return insertOutcome(writer, subject);
  const { stock, budgetLeft } = awardState(writer.db, promotion, drawn);
  if (!canAward(drawn, stock, budgetLeft)) return insertOutcome(writer, subject);
  const code = deliveredCode(writer, campaign, unitId);
  if (code === undefined || !awardPrize(writer.db, promotion.id, drawn)) return insertOutcome(writer, subject);
  return insertOutcome(writer, subject, { prize: drawn, delivery: drawn.delivery, code });
}

/** The code a won entry delivers (null: none, for content); undefined when a code unlock's pool is empty. */
function deliveredCode(writer: Writer, { promotion, brand }: Campaign, unitId: number): string | null | undefined {
  switch (DELIVERED_CODE[promotion.content.mechanic]) {
    case 'pack':
      return prizeCode(writer.seed, brand.prefix, unitId);
    case 'pool':
      return claimPoolCode(writer.db, promotion.id, unitId);
    case 'none':
      return null;
  }
}

/** Stores a won entry in the given delivery mode, or a non-winning one when no prize is given. */
export function insertOutcome(writer: Writer, subject: EntrySubject, won?: { prize: Prize; delivery: Prize['delivery']; code: string | null }): Entry {
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
    ...base, state: start.state, prize_id: won.prize.id, prize_name: won.prize.name, codes: JSON.stringify(won.code === null ? [] : [won.code]), redemption_url: won.prize.redemption_url,
    delivery_state: start.deliveryState, delivery_outcome: start.settlesAs ?? null,
    delivery_due_at: start.settlesAs ? now + subject.campaign.promotion.content.delivery_delay_seconds * 1000 : null,
  });
}
