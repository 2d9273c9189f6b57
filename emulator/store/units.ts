/** Packs (units) as a scan sees them: code, kind, recall flag and the brand they belong to. */
import type { Db } from './db.js';

export interface ScannedUnit {
  id: number;
  code: string;
  kind: 'production' | 'test' | 'preview';
  recalled: number;
  brand_id: number;
  sku_name: string;
  /** The promotion the pack's SKU enters, if any. */
  promotion_id: number | null;
}

export function findUnitByCode(db: Db, code: string): ScannedUnit | undefined {
  return db
    .prepare(`SELECT u.id, u.code, u.kind, u.recalled, s.brand_id, s.name AS sku_name, s.promotion_id
      FROM units u JOIN skus s ON s.id = u.sku_id WHERE u.code = ?`)
    .get(code) as ScannedUnit | undefined;
}

/** Whether this collector has scanned this pack: the hosted page opens only after a scan. */
export function hasScanned(db: Db, collectorId: number, unitId: number): boolean {
  return db.prepare('SELECT 1 FROM scans WHERE collector_id = ? AND unit_id = ? LIMIT 1').get(collectorId, unitId) !== undefined;
}

/** The code printed on a pack, for the control plane's observed calls. */
export function packCodeOfUnit(db: Db, unitId: number): string | null {
  return (db.prepare('SELECT code FROM units WHERE id = ?').get(unitId) as { code: string } | undefined)?.code ?? null;
}
