/**
 * Seeds a fresh database from a fixture and a seed. Every id, code and secret derives from the
 * seed, so two fresh instances with the same fixture and seed hold the same world. Each table is
 * written through the module that owns it (eslint/table-writers.js).
 */
import { type Fixture, type PromotionContent, promotionSlug } from '../fixture.js';
import { issueSecret } from '../domain/secrets.js';
import { createBatch, seedUnit } from './batches.js';
import { createCollector } from './collectors.js';
import { createBrand, createCompany } from './companies.js';
import { seedCodePool } from './code-pool.js';
import { codeSuffix } from './code-text.js';
import { type Db, getMeta, setMeta } from './db.js';
import { discardInteractions } from './interaction-rows.js';
import { type Environment, createAgencyKey } from './keys.js';
import { DEFAULT_HISTORY_SCANS, seedHistory } from './history.js';
import { createPromotion } from './promotions.js';
import { claimSkus, giveUnclaimedSkus, seedSku } from './skus.js';

/** A key the fixture seeds: `emulator env` names its secret again from the serial. */
export interface SeededKey {
  id: number;
  promotion_id: number;
  environment: Environment;
  serial: number;
}

type Brand = Fixture['brands'][number];

export function isSeeded(db: Db): boolean {
  return getMeta(db, 'seed') !== undefined;
}

export function seedWorld(db: Db, fixture: Fixture, seed: string, now: number): void {
  // After a reset, calls of the world it replaced must not reach the new world's log.
  discardInteractions(db);
  db.transaction(() => {
    setMeta(db, 'seed', seed);
    const brandIds = new Map<string, number>();
    const companies = [{ name: fixture.company.name, brands: fixture.brands }, ...fixture.companies];
    // Each company's reporting token is the next serial: the first company's is serial 1.
    companies.forEach((company, index) => {
      const companyId = createCompany(db, company.name, issueSecret(seed, 'reporting_token', index + 1));
      for (const brand of company.brands) brandIds.set(brand.slug, seedBrand(db, seed, companyId, brand, now));
    });

    for (const collector of fixture.collectors) {
      createCollector(db, { email: collector.email, country: collector.country ?? null, city: collector.city ?? null, tester: collector.tester ?? false, now });
    }

    // The default promotion first, so it and its keys keep the first ids.
    const seededKeys: SeededKey[] = [];
    const promotions = [{ content: fixture.promotion, agencyKeys: fixture.agency_keys }, ...fixture.promotions.map(({ agency_keys, ...content }) => ({ content, agencyKeys: agency_keys }))];
    for (const { content, agencyKeys } of promotions) {
      const promotionId = seedPromotion(db, seed, content, brandIds.get(content.brand)!);
      for (const environment of agencyKeys) {
        const { id, serial } = createAgencyKey(db, seed, { promotionId, environment, now });
        seededKeys.push({ id, promotion_id: promotionId, environment, serial });
      }
    }
    giveUnclaimedSkus(db);
    setMeta(db, 'seeded_keys', JSON.stringify(seededKeys));
    seedHistory(db, seed, now, fixture.history?.scans ?? DEFAULT_HISTORY_SCANS);
  })();
}

export function seededKeys(db: Db): SeededKey[] {
  return JSON.parse(getMeta(db, 'seeded_keys') ?? '[]') as SeededKey[];
}

function seedBrand(db: Db, seed: string, companyId: number, brand: Brand, now: number): number {
  const brandId = createBrand(db, companyId, brand);
  for (const sku of brand.skus) {
    const skuId = seedSku(db, { brandId, name: sku.name, prefix: sku.prefix, now });
    sku.batches.forEach((batch, batchIndex) => seedBatch(db, seed, { skuId, skuPrefix: sku.prefix, batchIndex, batch, now }));
  }
  return brandId;
}

/** A promotion with its prizes and code pool, claiming the SKUs it lists; listing none, it covers its brand's unlisted SKUs. */
export function seedPromotion(db: Db, seed: string, content: PromotionContent, brandId: number): number {
  const slug = promotionSlug(content);
  const promotionId = createPromotion(db, brandId, slug, content);
  claimSkus(db, promotionId, brandId, content.skus ?? []);
  if (content.code_pool) seedCodePool(db, seed, { promotionId, slug, prefix: content.code_pool.prefix, size: content.prizes.reduce((sum, prize) => sum + prize.stock, 0) });
  return promotionId;
}

interface BatchSeed {
  skuId: number;
  skuPrefix: string;
  batchIndex: number;
  batch: Brand['skus'][number]['batches'][number];
  now: number;
}

function seedBatch(db: Db, seed: string, { skuId, skuPrefix, batchIndex, batch, now }: BatchSeed): void {
  const { id: batchId } = createBatch(db, { skuId, quantity: batch.packs, purpose: batch.purpose, state: 'export_ready', now });
  const day = batch.produced_on.slice(2).replaceAll('-', '');
  for (let i = 0; i < batch.packs; i++) {
    const code = `${skuPrefix}-${day}-${codeSuffix(seed, `unit:${skuPrefix}:${batchIndex}:${i}`)}`;
    seedUnit(db, { batchId, skuId, code, kind: batch.kind, recalled: i >= batch.packs - batch.recalled });
  }
}
