/**
 * A code-unlock promotion's pool: a finite list of codes, each handed to one pack's entry, in
 * order. The pool holds as many codes as its prizes' stock, and each award takes one of each.
 * @see decisions/008-code-unlock-gives-one-code-from-a-pool.md
 */
import { poolCode } from './code-text.js';
import type { Db } from './db.js';

export function seedCodePool(db: Db, seed: string, pool: { promotionId: number; slug: string; prefix: string; size: number }): void {
  const insert = db.prepare('INSERT INTO pool_codes (promotion_id, code) VALUES (?, ?)');
  for (let i = 0; i < pool.size; i++) insert.run(pool.promotionId, poolCode(seed, pool.prefix, `${pool.slug}:${i}`));
}

/** The next free code, now the pack's; undefined once the pool is empty. The caller holds the transaction. */
export function claimPoolCode(db: Db, promotionId: number, unitId: number): string | undefined {
  const row = db
    .prepare(`UPDATE pool_codes SET unit_id = ? WHERE id = (SELECT id FROM pool_codes WHERE promotion_id = ? AND unit_id IS NULL ORDER BY id LIMIT 1) RETURNING code`)
    .get(unitId, promotionId) as { code: string } | undefined;
  return row?.code;
}

export function freePoolCodes(db: Db, promotionId: number): number {
  return (db.prepare('SELECT count(*) AS n FROM pool_codes WHERE promotion_id = ? AND unit_id IS NULL').get(promotionId) as { n: number }).n;
}
