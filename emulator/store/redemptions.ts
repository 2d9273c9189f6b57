/**
 * Rewards of a brand's promotions that reached their collector (claimed), and those used at the
 * point of fulfilment (redeemed). @see spec §4.4 (redemptions)
 */
import type { Db } from './db.js';

export type RedemptionStatus = 'claimed' | 'redeemed';
export type RedemptionChannel = 'online' | 'in_store';

export interface RedemptionRow {
  entry_id: number;
  promotion_id: number;
  prize_id: number;
  prize_name: string | null;
  collector_id: number;
  country: string | null;
  codes: string;
  claimed_at: number;
  redeemed_at: number | null;
  channel: RedemptionChannel | null;
}

export interface RedemptionPage {
  since?: number;
  until?: number;
  status?: RedemptionStatus;
  limit: number;
  offset: number;
}

/**
 * A reward is claimed once delivered: at entry for instant prizes, when the delay has passed for
 * delayed ones (settled by the one rule, store/connection.ts). Failed deliveries are not claimed.
 */
export function listRedemptions(db: Db, brandId: number, page: RedemptionPage, now: number): RedemptionRow[] {
  const status = page.status === undefined ? '' : page.status === 'redeemed' ? 'AND r.entry_id IS NOT NULL' : 'AND r.entry_id IS NULL';
  return db
    .prepare(`SELECT * FROM (
        SELECT e.id AS entry_id, e.promotion_id, e.prize_id, e.prize_name, e.collector_id, e.country, e.codes,
          coalesce(e.delivery_due_at, e.created_at) AS claimed_at, r.redeemed_at, r.channel
        FROM entries e JOIN promotions p ON p.id = e.promotion_id LEFT JOIN redemptions r ON r.entry_id = e.id
        WHERE p.brand_id = ? AND e.sandbox = 0 AND e.prize_id IS NOT NULL ${status}
          AND delivery_state_as_of(e.delivery_state, e.delivery_due_at, e.delivery_outcome, ?) = 'delivered')
      WHERE claimed_at BETWEEN ? AND ? ORDER BY claimed_at DESC, entry_id DESC LIMIT ? OFFSET ?`)
    .all(brandId, now, page.since ?? Number.MIN_SAFE_INTEGER, page.until ?? Number.MAX_SAFE_INTEGER, page.limit, page.offset) as RedemptionRow[];
}

/** A delivered prize redeemed (the seeded history's: the service has no call that redeems one). */
export function recordRedemption(db: Db, entryId: number, redeemedAt: number, channel: RedemptionChannel): void {
  db.prepare('INSERT INTO redemptions (entry_id, redeemed_at, channel) VALUES (?, ?, ?)').run(entryId, redeemedAt, channel);
}
