/**
 * A brand's audience: collectors with at least one production scan of the brand, counted on this
 * brand only (scans of other brands never show). @see spec §1 (reporting), §2.8, public reference §3.5
 */
import type { Db } from './db.js';

export interface AudienceMember {
  id: number;
  scans: number;
  /** Distinct packs scanned: points are earned once per pack. */
  packs: number;
  /** Prizes won in this brand's promotions, whatever their delivery state. */
  items_claimed: number;
  /** The first production scan of this brand: when the collector joined this brand's audience. */
  joined_at: number;
}

const MEMBERS = `SELECT s.collector_id AS id, COUNT(*) AS scans, COUNT(DISTINCT s.unit_id) AS packs, MIN(s.scanned_at) AS joined_at,
    (SELECT COUNT(*) FROM entries e JOIN promotions p ON p.id = e.promotion_id
      WHERE e.collector_id = s.collector_id AND e.sandbox = 0 AND e.state != 'lost' AND p.brand_id = s.brand_id) AS items_claimed
  FROM scans s WHERE s.brand_id = ? AND s.tester = 0`;

/** Newest members first. */
export function listAudience(db: Db, brandId: number, page: { limit: number; offset: number }): AudienceMember[] {
  return db
    .prepare(`${MEMBERS} AND s.collector_id IS NOT NULL GROUP BY s.collector_id ORDER BY joined_at DESC, id DESC LIMIT ? OFFSET ?`)
    .all(brandId, page.limit, page.offset) as AudienceMember[];
}

/** Undefined when the collector never scanned this brand in production. */
export function findAudienceMember(db: Db, brandId: number, collectorId: number): AudienceMember | undefined {
  return db.prepare(`${MEMBERS} AND s.collector_id = ? GROUP BY s.collector_id`).get(brandId, collectorId) as AudienceMember | undefined;
}
