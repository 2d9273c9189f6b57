/**
 * What the reporting API reads about scans: production scans only, a brand's own, newest first,
 * joined with their unit and SKU. The entries made on those packs are in entries.ts.
 * @see spec §1 (reporting), §4.4
 */
import type { Db } from './db.js';

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

/**
 * The page is picked from the covering index alone, then joined: an OFFSET of half a million skips
 * index entries, not half a million joined rows.
 */
export function listProductionScans(db: Db, brandId: number, page: ScanPage): ScanRow[] {
  return db
    .prepare(`${SELECT_SCAN} WHERE s.id IN (
        SELECT s.id FROM scans s WHERE ${PRODUCTION_OF_BRAND} AND s.scanned_at BETWEEN ? AND ? ${NEWEST_FIRST} LIMIT ? OFFSET ?)
      ${NEWEST_FIRST}`)
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
