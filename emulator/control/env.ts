/** The running emulator's connection values, as `emulator env` and `/_emulator/env` show them. */
import type { Context } from '../context.js';
import { drawNumber, expectedOutcome, outcomeOf } from '../domain/draw.js';
import { issueSecret } from '../domain/secrets.js';
import { getMeta } from '../store/db.js';
import { type Environment, keySecret } from '../store/keys.js';
import { firstPromotionId, getBrand, getPromotion, listPrizes } from '../store/promotions.js';

const PACKS_PER_OUTCOME = 3;

export interface KnownPack {
  code: string;
  outcome: string;
  /** For a pending pack: what its delivery settles as on the clock. */
  settles_as?: string;
}

export function envValues(ctx: Context) {
  const { db, seed } = ctx;
  const promotionId = firstPromotionId(db);
  const promotion = getPromotion(db, promotionId);
  const brand = getBrand(db, promotion.brand_id);
  const seededKeys = JSON.parse(getMeta(db, 'seeded_keys') ?? '[]') as Array<{ environment: Environment; serial: number }>;
  const keyFor = (environment: Environment) => {
    const seeded = seededKeys.find((key) => key.environment === environment);
    return seeded ? keySecret(seed, environment, seeded.serial) : null;
  };
  return {
    base_url: ctx.config.baseUrl,
    dashboard_url: `${ctx.config.baseUrl}/`,
    sandbox_key: keyFor('sandbox'),
    production_key: keyFor('production'),
    reporting_token: issueSecret(seed, 'reporting_token', 1),
    brand_slug: brand.slug,
    promotion_id: promotionId,
    packs: knownPacks(ctx, promotionId, promotion.brand_id),
    test_packs: unitCodes(ctx, promotion.brand_id, "kind = 'test'"),
    preview_packs: unitCodes(ctx, promotion.brand_id, "kind = 'preview'"),
    recalled_packs: unitCodes(ctx, promotion.brand_id, 'recalled = 1'),
    collectors: db.prepare('SELECT id, email, country, city, tester FROM collectors ORDER BY id').all() as Array<{ id: number; email: string; country: string | null }>,
  };
}

export type EnvValues = ReturnType<typeof envValues>;

/** Production packs not yet entered whose seeded draw is known: a few of each outcome (pending: of each settlement). */
function knownPacks(ctx: Context, promotionId: number, brandId: number): KnownPack[] {
  const prizes = listPrizes(ctx.db, promotionId);
  // Iterated, not loaded: a brand may hold millions of generated codes, and a few of each outcome is enough.
  const units = ctx.db
    .prepare(`SELECT u.id, u.code FROM units u JOIN skus s ON s.id = u.sku_id
      WHERE s.brand_id = ? AND u.kind = 'production' AND u.recalled = 0
        AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.promotion_id = ? AND e.unit_id = u.id AND e.sandbox = 0) ORDER BY u.id`)
    .iterate(brandId, promotionId) as IterableIterator<{ id: number; code: string }>;
  const wanted = new Set([...prizes, undefined].map((prize) => kindOf(outcomeOf(prize)))).size;
  const counts = new Map<string, number>();
  const packs: KnownPack[] = [];
  for (const unit of units) {
    const expected = expectedOutcome(drawNumber(ctx.seed, promotionId, unit.id), prizes);
    const kind = kindOf(expected);
    if ((counts.get(kind) ?? 0) >= PACKS_PER_OUTCOME) continue;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    packs.push({ code: unit.code, ...expected });
    if (counts.size === wanted && [...counts.values()].every((count) => count === PACKS_PER_OUTCOME)) break;
  }
  return packs;
}

const kindOf = (expected: { outcome: string; settles_as?: string }) => `${expected.outcome}:${expected.settles_as ?? ''}`;

function unitCodes(ctx: Context, brandId: number, where: string): string[] {
  const rows = ctx.db.prepare(`SELECT u.code FROM units u JOIN skus s ON s.id = u.sku_id WHERE s.brand_id = ? AND ${where} ORDER BY u.id`).all(brandId) as Array<{ code: string }>;
  return rows.map((row) => row.code);
}
