/**
 * Seeds a fresh database from a fixture and a seed. Every id, code and secret derives from the
 * seed, so two fresh instances with the same fixture and seed hold the same world.
 */
import type { Fixture } from '../fixture.js';
import { deriveBytes, hashSecret, issueSecret } from '../domain/secrets.js';
import { type Db, getMeta, setMeta } from './db.js';
import { discardInteractions } from './interactions.js';
import { createAgencyKey } from './keys.js';
import { DEFAULT_HISTORY_SCANS, seedHistory } from './history.js';

/** Unambiguous upper-case letters and digits for pack codes (no 0/O, 1/I/L). */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function codeSuffix(seed: string, label: string, length = 5): string {
  const bytes = deriveBytes(seed, label);
  return Array.from({ length }, (_, i) => CODE_ALPHABET[bytes[i]! % CODE_ALPHABET.length]).join('');
}

/** The code a won prize delivers: it belongs to the pack, the same whichever page entered it. */
export function prizeCode(seed: string, brandPrefix: string, unitId: number): string {
  return `${brandPrefix}-${codeSuffix(seed, `prize-code:${unitId}`, 10)}`;
}

export function isSeeded(db: Db): boolean {
  return getMeta(db, 'seed') !== undefined;
}

export function seedWorld(db: Db, fixture: Fixture, seed: string, now: number): void {
  // After a reset, calls of the world it replaced must not reach the new world's log.
  discardInteractions(db);
  db.transaction(() => {
    setMeta(db, 'seed', seed);
    const company = db
      .prepare('INSERT INTO companies (name, token_hash) VALUES (?, ?) RETURNING id')
      .get(fixture.company.name, hashSecret(issueSecret(seed, 'reporting_token', 1))) as { id: number };

    const brandIds = new Map<string, number>();
    for (const brand of fixture.brands) {
      const { id: brandId } = db
        .prepare('INSERT INTO brands (company_id, slug, name, prefix) VALUES (?, ?, ?, ?) RETURNING id')
        .get(company.id, brand.slug, brand.name, brand.prefix) as { id: number };
      brandIds.set(brand.slug, brandId);
      for (const sku of brand.skus) {
        const { id: skuId } = db
          .prepare('INSERT INTO skus (brand_id, name, prefix, created_at) VALUES (?, ?, ?, ?) RETURNING id')
          .get(brandId, sku.name, sku.prefix, now) as { id: number };
        sku.batches.forEach((batch, batchIndex) => seedBatch(db, seed, { skuId, skuPrefix: sku.prefix, batchIndex, batch, now }));
      }
    }

    const insertCollector = db.prepare('INSERT INTO collectors (email, country, city, tester, joined_at) VALUES (?, ?, ?, ?, ?)');
    for (const collector of fixture.collectors) {
      insertCollector.run(collector.email, collector.country ?? null, collector.city ?? null, collector.tester ? 1 : 0, now);
    }

    const promotion = fixture.promotion;
    const { id: promotionId } = db
      .prepare('INSERT INTO promotions (brand_id, content, routing_paused) VALUES (?, ?, ?) RETURNING id')
      .get(brandIds.get(promotion.brand), JSON.stringify(promotion), promotion.routing_paused ? 1 : 0) as { id: number };
    const insertPrize = db.prepare(`INSERT INTO prizes (promotion_id, position, name, odds, stock, face_value, reward_type, tier, delivery, redemption_url)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    promotion.prizes.forEach((prize, position) =>
      insertPrize.run(promotionId, position, prize.name, prize.odds, prize.stock, prize.face_value, prize.reward_type, prize.tier, prize.delivery, prize.redemption_url ?? null),
    );

    const seededKeys = fixture.agency_keys.map((environment) => {
      const { id, serial } = createAgencyKey(db, seed, { promotionId, environment, now });
      return { id, environment, serial };
    });
    setMeta(db, 'seeded_keys', JSON.stringify(seededKeys));
    seedHistory(db, seed, now, fixture.history?.scans ?? DEFAULT_HISTORY_SCANS);
  })();
}

interface BatchSeed {
  skuId: number;
  skuPrefix: string;
  batchIndex: number;
  batch: Fixture['brands'][number]['skus'][number]['batches'][number];
  now: number;
}

function seedBatch(db: Db, seed: string, { skuId, skuPrefix, batchIndex, batch, now }: BatchSeed): void {
  const { id: batchId } = db
    .prepare("INSERT INTO batches (sku_id, quantity, purpose, state, created_at) VALUES (?, ?, ?, 'export_ready', ?) RETURNING id")
    .get(skuId, batch.packs, batch.purpose, now) as { id: number };
  const day = batch.produced_on.slice(2).replaceAll('-', '');
  const insertUnit = db.prepare('INSERT INTO units (batch_id, sku_id, code, kind, recalled) VALUES (?, ?, ?, ?, ?)');
  for (let i = 0; i < batch.packs; i++) {
    const code = `${skuPrefix}-${day}-${codeSuffix(seed, `unit:${skuPrefix}:${batchIndex}:${i}`)}`;
    insertUnit.run(batchId, skuId, code, batch.kind, i >= batch.packs - batch.recalled ? 1 : 0);
  }
}
