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

export function insertScan(db: Db, scan: NewScan): number {
  const row = db
    .prepare(`INSERT INTO scans (unit_id, brand_id, collector_id, tester, country, city, device_type, scanned_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
    .get(scan.unitId, scan.brandId, scan.collectorId, scan.tester ? 1 : 0, scan.country, scan.city, scan.deviceType, scan.scannedAt) as { id: number };
  countScansInAudience(db, row.id, row.id);
  return row.id;
}
