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

/** Counts a recorded scan into its brand's audience; in the transaction that inserts the scan. */
export function countScanInAudience(db: Db, scan: { brandId: number; collectorId: number | null; tester: boolean; unitId: number; scannedAt: number }): void {
  if (scan.tester || scan.collectorId === null) return;
  const newPack = db.prepare('INSERT INTO audience_packs (brand_id, collector_id, unit_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
    .run(scan.brandId, scan.collectorId, scan.unitId).changes;
  db.prepare(`INSERT INTO audience_members (brand_id, collector_id, scans, packs, joined_at) VALUES (?, ?, 1, ?, ?)
      ON CONFLICT (brand_id, collector_id) DO UPDATE SET scans = scans + 1, packs = packs + excluded.packs, joined_at = min(joined_at, excluded.joined_at)`)
    .run(scan.brandId, scan.collectorId, newPack, scan.scannedAt);
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
