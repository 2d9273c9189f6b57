/** Scans of packs: production or tester, with where and on what device they happened. */
import { countScansInAudience } from './audience.js';
import type { Db } from './db.js';

export interface NewScan {
  unitId: number;
  brandId: number;
  collectorId: number | null;
  tester: boolean;
  country: string | null;
  city: string | null;
  deviceType: string | null;
  scannedAt: number;
}

export interface Scan {
  id: number;
  unit_id: number;
  brand_id: number;
  collector_id: number | null;
  tester: number;
  country: string | null;
  city: string | null;
  device_type: string | null;
  scanned_at: number;
}

export function insertScan(db: Db, scan: NewScan): number {
  const row = db
    .prepare(`INSERT INTO scans (unit_id, brand_id, collector_id, tester, country, city, device_type, scanned_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
    .get(scan.unitId, scan.brandId, scan.collectorId, scan.tester ? 1 : 0, scan.country, scan.city, scan.deviceType, scan.scannedAt) as { id: number };
  countScansInAudience(db, row.id, row.id);
  return row.id;
}

/** Scans recorded after `afterId`, tester scans too, oldest first: a cursor that misses none. */
/**
 * The seeded history's scans, inserted through a statement prepared once per run and counted in the
 * audience by the caller, together, once they are in (countScansInAudience): at a million scans,
 * `insertScan` per scan would cost more than the inserts themselves. Returns each scan's id.
 */
export function scanSeeder(db: Db): (unitId: number, brandId: number, collectorId: number | null, tester: number, country: string | null, city: string | null, deviceType: string, scannedAt: number) => number {
  const insert = db.prepare(`INSERT INTO scans (unit_id, brand_id, collector_id, tester, country, city, device_type, scanned_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  return (...scan) => Number(insert.run(...scan).lastInsertRowid);
}

export function scansAfter(db: Db, afterId: number): Scan[] {
  return db.prepare('SELECT id, unit_id, brand_id, collector_id, tester, country, city, device_type, scanned_at FROM scans WHERE id > ? ORDER BY id').all(afterId) as Scan[];
}

/** The id of the last scan, or of the last production scan; 0 before the first. */
export function lastScanId(db: Db, which: 'any' | 'production' = 'any'): number {
  return db.prepare(`SELECT coalesce(max(id), 0) FROM scans${which === 'production' ? ' WHERE tester = 0' : ''}`).pluck().get() as number;
}

/** Every scan stored, production and tester alike. */
export function countScans(db: Db): number {
  return db.prepare('SELECT count(*) FROM scans').pluck().get() as number;
}
