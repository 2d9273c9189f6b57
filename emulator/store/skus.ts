/** SKUs of a brand: a name and the code prefix every unit code of the SKU starts with. @see spec §2.9 */
import type { Db } from './db.js';

export interface Sku {
  id: number;
  brand_id: number;
  name: string;
  prefix: string;
  created_at: number;
}

export function listSkus(db: Db, brandId: number): Sku[] {
  return db.prepare('SELECT * FROM skus WHERE brand_id = ? ORDER BY id').all(brandId) as Sku[];
}

export function findSku(db: Db, brandId: number, skuId: number): Sku | undefined {
  return db.prepare('SELECT * FROM skus WHERE id = ? AND brand_id = ?').get(skuId, brandId) as Sku | undefined;
}

/**
 * Undefined when the prefix is taken: prefixes are unique across every brand, as unit codes are.
 * Its packs enter the brand's promotion that lists no SKUs, if it has one.
 */
export function createSku(db: Db, input: { brandId: number; name: string; prefix: string; now: number }): Sku | undefined {
  return db
    .prepare(`INSERT INTO skus (brand_id, name, prefix, created_at, promotion_id)
      VALUES (?, ?, ?, ?, (SELECT id FROM promotions WHERE brand_id = ? AND covers_rest = 1)) ON CONFLICT (prefix) DO NOTHING RETURNING *`)
    .get(input.brandId, input.name, input.prefix, input.now, input.brandId) as Sku | undefined;
}

/** SKU prefixes are unique across every brand. */
export function findSkuByPrefix(db: Db, prefix: string): Sku | undefined {
  return db.prepare('SELECT * FROM skus WHERE prefix = ?').get(prefix) as Sku | undefined;
}

export function getSku(db: Db, skuId: number): Sku {
  return db.prepare('SELECT * FROM skus WHERE id = ?').get(skuId) as Sku;
}

/** The SKUs whose packs enter a promotion. */
export function listPromotionSkus(db: Db, promotionId: number): Array<{ id: number; prefix: string }> {
  return db.prepare('SELECT id, prefix FROM skus WHERE promotion_id = ? ORDER BY id').all(promotionId) as Array<{ id: number; prefix: string }>;
}

/** A fixture's SKU, seeded before any promotion claims it. */
export function seedSku(db: Db, input: { brandId: number; name: string; prefix: string; now: number }): number {
  return db.prepare('INSERT INTO skus (brand_id, name, prefix, created_at) VALUES (?, ?, ?, ?) RETURNING id').pluck().get(input.brandId, input.name, input.prefix, input.now) as number;
}

/** The promotion takes the SKUs of its brand it lists. */
export function claimSkus(db: Db, promotionId: number, brandId: number, prefixes: readonly string[]): void {
  const claim = db.prepare('UPDATE skus SET promotion_id = ? WHERE prefix = ? AND brand_id = ?');
  for (const prefix of prefixes) claim.run(promotionId, prefix, brandId);
}

/** SKUs no promotion lists enter their brand's promotion without a list, if it has one. */
export function giveUnclaimedSkus(db: Db): void {
  db.prepare('UPDATE skus SET promotion_id = (SELECT p.id FROM promotions p WHERE p.brand_id = skus.brand_id AND p.covers_rest = 1) WHERE promotion_id IS NULL').run();
}
