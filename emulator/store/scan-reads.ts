/**
 * What the reporting API reads about scans: production scans only, a brand's own, newest first,
 * joined with their unit and SKU; and the production entries made on those packs.
 * @see spec §1 (reporting), §4.4
 */
import type { Db } from './db.js';
import type { Entry } from './entries.js';

export interface ScanRow {
  id: number;
  brand_id: number;
  unit_id: number;
  unit_code: string;
  sku_id: number;
  sku_name: string;
  sku_prefix: string;
  /** The promotion the pack's SKU enters, if any: the one activation that can apply to the scan. */
  promotion_id: number | null;
  batch_id: number;
  collector_id: number | null;
  country: string | null;
  city: string | null;
  device_type: string | null;
  scanned_at: number;
}

const SELECT_SCAN = `SELECT s.id, s.brand_id, s.unit_id, u.code AS unit_code, u.sku_id, k.name AS sku_name, k.prefix AS sku_prefix, k.promotion_id, u.batch_id,
    s.collector_id, s.country, s.city, s.device_type, s.scanned_at
  FROM scans s JOIN units u ON u.id = s.unit_id JOIN skus k ON k.id = u.sku_id`;

/** `tester = 0` is spelled out in every query: the partial indexes of schema-reporting only serve queries that say it. */
const PRODUCTION_OF_BRAND = 's.brand_id = ? AND s.tester = 0';
const NEWEST_FIRST = 'ORDER BY s.scanned_at DESC, s.id DESC';

export interface ScanPage {
  since?: number;
  until?: number;
  limit: number;
  offset: number;
}

export function listProductionScans(db: Db, brandId: number, page: ScanPage): ScanRow[] {
  return db
    .prepare(`${SELECT_SCAN} WHERE ${PRODUCTION_OF_BRAND} AND s.scanned_at BETWEEN ? AND ? ${NEWEST_FIRST} LIMIT ? OFFSET ?`)
    .all(brandId, page.since ?? Number.MIN_SAFE_INTEGER, page.until ?? Number.MAX_SAFE_INTEGER, page.limit, page.offset) as ScanRow[];
}

export function findProductionScan(db: Db, brandId: number, scanId: number): ScanRow | undefined {
  return db.prepare(`${SELECT_SCAN} WHERE ${PRODUCTION_OF_BRAND} AND s.id = ?`).get(brandId, scanId) as ScanRow | undefined;
}

/** A production scan of whichever brand: what `scan.processed` announces. */
export function findProductionScanById(db: Db, scanId: number): ScanRow | undefined {
  return db.prepare(`${SELECT_SCAN} WHERE s.id = ? AND s.tester = 0`).get(scanId) as ScanRow | undefined;
}

export function recentScansOfCollector(db: Db, brandId: number, collectorId: number, limit: number): ScanRow[] {
  return db.prepare(`${SELECT_SCAN} WHERE ${PRODUCTION_OF_BRAND} AND s.collector_id = ? ${NEWEST_FIRST} LIMIT ?`).all(brandId, collectorId, limit) as ScanRow[];
}

export type PackEntry = Pick<Entry, 'id' | 'promotion_id' | 'unit_id' | 'collector_id' | 'state' | 'prize_id' | 'prize_name'>;

/** Production entries of these promotions on these packs (at most one per promotion and pack). */
export function entriesOnPacks(db: Db, promotionIds: number[], unitIds: number[]): PackEntry[] {
  if (promotionIds.length === 0 || unitIds.length === 0) return [];
  return db
    .prepare(`SELECT id, promotion_id, unit_id, collector_id, state, prize_id, prize_name FROM entries
      WHERE sandbox = 0 AND promotion_id IN (SELECT value FROM json_each(?)) AND unit_id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(promotionIds), JSON.stringify(unitIds)) as PackEntry[];
}

export interface EnteredPack extends PackEntry {
  delivery_state: Entry['delivery_state'];
  country: string | null;
  created_at: number;
  brand_id: number;
  unit_code: string;
  sku_id: number;
  sku_name: string;
  sku_prefix: string;
}

/** A production entry with the pack it entered: what `activation.entered` announces. */
export function findProductionEntry(db: Db, entryId: number): EnteredPack | undefined {
  return db
    .prepare(`SELECT e.id, e.promotion_id, e.unit_id, e.collector_id, e.state, e.prize_id, e.prize_name, e.delivery_state, e.country, e.created_at,
        k.brand_id, u.code AS unit_code, u.sku_id, k.name AS sku_name, k.prefix AS sku_prefix
      FROM entries e JOIN units u ON u.id = e.unit_id JOIN skus k ON k.id = u.sku_id WHERE e.id = ? AND e.sandbox = 0`)
    .get(entryId) as EnteredPack | undefined;
}
