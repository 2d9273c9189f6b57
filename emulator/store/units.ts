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

const SELECT_UNIT = 'SELECT u.id, u.code, u.kind, u.recalled, s.brand_id, s.name AS sku_name, s.promotion_id FROM units u JOIN skus s ON s.id = u.sku_id';

export function findUnitByCode(db: Db, code: string): ScannedUnit | undefined {
  return db.prepare(`${SELECT_UNIT} WHERE u.code = ?`).get(code) as ScannedUnit | undefined;
}

/** A brand's production packs, recalled ones included, oldest first. */
export function productionUnitsOfBrand(db: Db, brandId: number): ScannedUnit[] {
  return db.prepare(`${SELECT_UNIT} WHERE s.brand_id = ? AND u.kind = 'production' ORDER BY u.id`).all(brandId) as ScannedUnit[];
}

/** The packs of one SKU, of every kind, oldest first. */
export function unitsOfSku(db: Db, skuId: number): ScannedUnit[] {
  return db.prepare(`${SELECT_UNIT} WHERE u.sku_id = ? ORDER BY u.id`).all(skuId) as ScannedUnit[];
}

/** Whether this collector has scanned this pack: the hosted page opens only after a scan. */
export function hasScanned(db: Db, collectorId: number, unitId: number): boolean {
  return db.prepare('SELECT 1 FROM scans WHERE collector_id = ? AND unit_id = ? LIMIT 1').get(collectorId, unitId) !== undefined;
}

/** The code printed on a pack, for the control plane's observed calls. */
export function packCodeOfUnit(db: Db, unitId: number): string | null {
  return (db.prepare('SELECT code FROM units WHERE id = ?').get(unitId) as { code: string } | undefined)?.code ?? null;
}

const PACK_FILTERS = { production: "u.kind = 'production' AND u.recalled = 0", test: "u.kind = 'test'", preview: "u.kind = 'preview'", recalled: 'u.recalled = 1' } as const;

/**
 * The codes of a promotion's production (not recalled), test, preview or recalled packs, oldest
 * first. From its SKUs (CROSS JOIN keeps that order): test, preview and recalled through their
 * partial indexes, never a scan of every unit; production packs may be millions, read them by page.
 */
export function promotionPackCodes(db: Db, promotionId: number, which: keyof typeof PACK_FILTERS): string[] {
  return db
    .prepare(`SELECT u.code FROM skus s CROSS JOIN units u ON u.sku_id = s.id WHERE s.promotion_id = ? AND ${PACK_FILTERS[which]} ORDER BY u.id`)
    .pluck()
    .all(promotionId) as string[];
}
