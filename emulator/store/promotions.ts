/** Promotions, their prizes and their campaign content. */
import type { PromotionContent } from '../fixture.js';
import type { Delivery } from '../domain/delivery.js';
import { isIdText } from '../domain/ids.js';
import { cached } from '../fast-path/cache.js';
import type { Db } from './db.js';

/** A promotion as requests read it (cached); what its budget has paid out, awards.ts reads. */
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

/** A prize as requests read it (cached); its stock, awards.ts reads. */
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
