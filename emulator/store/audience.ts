/**
 * A brand's audience: collectors with at least one production scan of the brand, counted on this
 * brand only (scans of other brands never show). Every production scan is counted in as it is
 * recorded (schema-audience.ts), so a read costs the same at a million scans as at a thousand.
 * @see spec §1 (reporting), §2.8, public reference §3.5
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

/**
 * Counts the scans with ids `firstId` to `lastId`, just recorded, into their brands' audiences: in
 * the transaction that inserted them. The packs a member had not scanned yet are counted before
 * they are added to its packs.
 */
export function countScansInAudience(db: Db, firstId: number, lastId: number): void {
  db.prepare(`INSERT INTO audience_members (brand_id, collector_id, scans, packs, joined_at)
      SELECT s.brand_id, s.collector_id, COUNT(*), COUNT(DISTINCT CASE WHEN p.unit_id IS NULL THEN s.unit_id END), MIN(s.scanned_at)
      FROM scans s LEFT JOIN audience_packs p ON p.brand_id = s.brand_id AND p.collector_id = s.collector_id AND p.unit_id = s.unit_id
      WHERE s.id BETWEEN ? AND ? AND s.tester = 0 AND s.collector_id IS NOT NULL GROUP BY s.brand_id, s.collector_id
    ON CONFLICT (brand_id, collector_id) DO UPDATE SET scans = scans + excluded.scans, packs = packs + excluded.packs, joined_at = min(joined_at, excluded.joined_at)`)
    .run(firstId, lastId);
  db.prepare(`INSERT INTO audience_packs (brand_id, collector_id, unit_id)
      SELECT brand_id, collector_id, unit_id FROM scans WHERE id BETWEEN ? AND ? AND tester = 0 AND collector_id IS NOT NULL
    ON CONFLICT DO NOTHING`).run(firstId, lastId);
}

const MEMBERS = `SELECT m.collector_id AS id, m.scans, m.packs, m.joined_at,
    (SELECT COUNT(*) FROM entries e JOIN promotions p ON p.id = e.promotion_id
      WHERE e.collector_id = m.collector_id AND e.sandbox = 0 AND e.state != 'lost' AND p.brand_id = m.brand_id) AS items_claimed
  FROM audience_members m WHERE m.brand_id = ?`;

/** Newest members first. */
export function listAudience(db: Db, brandId: number, page: { limit: number; offset: number }): AudienceMember[] {
  return db.prepare(`${MEMBERS} ORDER BY m.joined_at DESC, m.collector_id DESC LIMIT ? OFFSET ?`).all(brandId, page.limit, page.offset) as AudienceMember[];
}

/** Undefined when the collector never scanned this brand in production. */
export function findAudienceMember(db: Db, brandId: number, collectorId: number): AudienceMember | undefined {
  return db.prepare(`${MEMBERS} AND m.collector_id = ?`).get(brandId, collectorId) as AudienceMember | undefined;
}
