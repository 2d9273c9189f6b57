/**
 * What the promotions have given away: each prize's stock left and each promotion's budget spent.
 * They change with every win, so they are read fresh, never from the catalog's cached copies
 * (promotions.ts).
 */
import type { Db } from './db.js';
import type { Prize, Promotion } from './promotions.js';

/** A prize's stock and its promotion's budget left, now: they change with every win, so they are never cached. */
export function awardState(db: Db, promotion: Promotion, prize: Prize): { stock: number; budgetLeft: number } {
  const row = db.prepare('SELECT stock, (SELECT budget_spent FROM promotions WHERE id = ?) AS spent FROM prizes WHERE id = ?').get(promotion.id, prize.id) as { stock: number; spent: number };
  return { stock: row.stock, budgetLeft: promotion.content.budget - row.spent };
}

/** Takes one unit of stock and the prize's value from the budget; false when either ran out meanwhile. */
export function awardPrize(db: Db, promotionId: number, prize: Prize): boolean {
  const stock = db.prepare('UPDATE prizes SET stock = stock - 1 WHERE id = ? AND stock > 0').run(prize.id);
  if (stock.changes !== 1) return false;
  db.prepare('UPDATE promotions SET budget_spent = budget_spent + ? WHERE id = ?').run(prize.face_value, promotionId);
  return true;
}
