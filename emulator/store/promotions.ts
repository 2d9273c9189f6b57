/**
 * Promotions, their prizes and their campaign content; the one writer of both tables. What the
 * promotions have given away (each prize's stock left, each promotion's budget spent) changes with
 * every win, so it is read fresh (`awardState`), never from the catalog's cached copies.
 */
import type { PromotionContent } from '../fixture.js';
import type { Delivery } from '../domain/delivery.js';
import { isIdText } from '../domain/ids.js';
import { cached } from '../fast-path/cache.js';
import type { Db } from './db.js';

/** A promotion as requests read it (cached); what its budget has paid out, `awardState` reads. */
export interface Promotion {
  id: number;
  /** How the CLI, the control plane and the dashboard name it. */
  slug: string;
  brand_id: number;
  content: PromotionContent;
  routing_paused: boolean;
  approved_at: number | null;
  preview_callback: string | null;
  production_callback: string | null;
}

/** A prize as requests read it (cached); its stock, `awardState` reads. */
export interface Prize {
  id: number;
  position: number;
  name: string;
  odds: number;
  face_value: number;
  reward_type: string;
  tier: string;
  delivery: Delivery;
  redemption_url: string | null;
}

export interface Brand {
  id: number;
  slug: string;
  name: string;
  prefix: string;
}

/** What a request about one promotion reads: loaded once, then passed down. */
export interface Campaign {
  promotion: Promotion;
  prizes: Prize[];
  brand: Brand;
}

/** Frozen, of frozen parts: the same campaign serves every request until its promotion, a prize or its brand is edited. */
export function loadCampaign(db: Db, promotionId: number): Campaign {
  return cached(db, 'catalog', `campaign:${promotionId}`, () => {
    const promotion = getPromotion(db, promotionId);
    return Object.freeze({ promotion, prizes: listPrizes(db, promotionId), brand: getBrand(db, promotion.brand_id) });
  });
}

interface PromotionRow extends Omit<Promotion, 'content' | 'routing_paused'> {
  content: string;
  routing_paused: number;
}

const PROMOTION_COLUMNS = 'id, slug, brand_id, content, routing_paused, approved_at, preview_callback, production_callback';
const PRIZE_COLUMNS = 'id, position, name, odds, face_value, reward_type, tier, delivery, redemption_url';

export function getPromotion(db: Db, id: number): Promotion {
  return cached(db, 'catalog', `promotion:${id}`, () => {
    const row = db.prepare(`SELECT ${PROMOTION_COLUMNS} FROM promotions WHERE id = ?`).get(id) as PromotionRow;
    return Object.freeze({ ...row, content: Object.freeze(JSON.parse(row.content) as PromotionContent), routing_paused: row.routing_paused === 1 });
  });
}

/** The default promotion: the fixture's `promotion`, seeded first. */
export function defaultPromotionId(db: Db): number {
  return (db.prepare('SELECT id FROM promotions ORDER BY id LIMIT 1').get() as { id: number }).id;
}

/** A promotion by its id (digits) or its slug. */
export function findPromotion(db: Db, ref: string): Promotion | undefined {
  // An id is its digits exactly (domain/ids.ts): `1.0`, `1e0` and `01` name no promotion.
  const id = isIdText(ref) ? Number(ref) : null;
  const row = db.prepare('SELECT id FROM promotions WHERE slug = ? OR id = ?').get(ref, id) as { id: number } | undefined;
  return row && getPromotion(db, row.id);
}

/** Frozen: the same array serves every request until a prize is edited. */
export function listPrizes(db: Db, promotionId: number): Prize[] {
  return cached(db, 'catalog', `prizes:${promotionId}`, () => {
    const prizes = db.prepare(`SELECT ${PRIZE_COLUMNS} FROM prizes WHERE promotion_id = ? ORDER BY position`).all(promotionId) as Prize[];
    return Object.freeze(prizes.map((prize) => Object.freeze(prize))) as Prize[];
  });
}

export function findBrandBySlug(db: Db, slug: string): Brand | undefined {
  return db.prepare('SELECT id, slug, name, prefix FROM brands WHERE slug = ?').get(slug) as Brand | undefined;
}

export function getBrand(db: Db, id: number): Brand {
  return cached(db, 'catalog', `brand:${id}`, () => Object.freeze(db.prepare('SELECT id, slug, name, prefix FROM brands WHERE id = ?').get(id) as Brand));
}

export function setRoutingPaused(db: Db, promotionId: number, paused: boolean): void {
  db.prepare('UPDATE promotions SET routing_paused = ? WHERE id = ?').run(paused ? 1 : 0, promotionId);
}

/**
 * Applies edited campaign content (copy, terms, prizes' public fields, dates, countries) to a
 * running promotion. Prize stock is set to the new stock less what was already awarded.
 */
export function updatePromotionContent(db: Db, promotionId: number, content: PromotionContent): void {
  db.transaction(() => {
    const before = getPromotion(db, promotionId).content;
    db.prepare('UPDATE promotions SET content = ? WHERE id = ?').run(JSON.stringify(content), promotionId);
    const update = db.prepare(`UPDATE prizes SET name = ?, odds = ?, stock = max(0, ? - (? - stock)), face_value = ?, reward_type = ?,
      tier = ?, delivery = ?, redemption_url = ? WHERE promotion_id = ? AND position = ?`);
    content.prizes.forEach((prize, position) =>
      update.run(prize.name, prize.odds, prize.stock, before.prizes[position]!.stock, prize.face_value, prize.reward_type, prize.tier, prize.delivery, prize.redemption_url ?? null, promotionId, position),
    );
  })();
}

export function listPromotions(db: Db): Promotion[] {
  const rows = db.prepare('SELECT id FROM promotions ORDER BY id').all() as Array<{ id: number }>;
  return rows.map((row) => getPromotion(db, row.id));
}

export function setCallbackUrls(db: Db, promotionId: number, urls: { production: string | null; preview: string | null }): void {
  db.prepare('UPDATE promotions SET production_callback = ?, preview_callback = ? WHERE id = ?').run(urls.production, urls.preview, promotionId);
}

export function setApprovedAt(db: Db, promotionId: number, approvedAt: number | null): void {
  db.prepare('UPDATE promotions SET approved_at = ? WHERE id = ?').run(approvedAt, promotionId);
}

export function brandPromotionIds(db: Db, brandId: number): number[] {
  return db.prepare('SELECT id FROM promotions WHERE brand_id = ? ORDER BY id').pluck().all(brandId) as number[];
}

/** A new promotion and its prizes, in the fixture's order; its SKUs are claimed apart (skus.ts). */
export function createPromotion(db: Db, brandId: number, slug: string, content: PromotionContent): number {
  const { id } = db
    .prepare('INSERT INTO promotions (brand_id, slug, content, routing_paused, covers_rest) VALUES (?, ?, ?, ?, ?) RETURNING id')
    .get(brandId, slug, JSON.stringify(content), content.routing_paused ? 1 : 0, content.skus ? 0 : 1) as { id: number };
  const insertPrize = db.prepare(`INSERT INTO prizes (promotion_id, position, name, odds, stock, face_value, reward_type, tier, delivery, redemption_url)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  content.prizes.forEach((prize, position) =>
    insertPrize.run(id, position, prize.name, prize.odds, prize.stock, prize.face_value, prize.reward_type, prize.tier, prize.delivery, prize.redemption_url ?? null),
  );
  return id;
}

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
