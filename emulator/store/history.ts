/**
 * Seeded scan history, so the reporting API has something worth reading: production scans of
 * every SKU over the 90 days before seeding, across countries and devices, some anonymous, some by
 * testers; entries with the seeded draw, and redemptions of some delivered prizes.
 *
 * Everything derives from the seed. Each run scans packs of its own batch per SKU ("Seeded scan
 * history"), so the fixture's packs stay unscanned and unentered for journeys and tests. A run's
 * entries hang on one session on the promotion's service key, as hosted-page entries do, and take
 * no stock or budget: the fixture's stock is what is left. Seeding raises no domain events;
 * webhooks announce history only when `emulator seed --scans N --webhooks` asks for it.
 * Scans go in through a statement prepared once per run (scans.ts `scanSeeder`). Entries are drawn and stored as every entry
 * is (domain/draw.ts, store/entries.ts), as they stand at seeding.
 */
import { admit } from '../domain/admission.js';
import { canAward, drawNumber, prizeForNumber } from '../domain/draw.js';
import { CODE_SOURCE } from '../domain/mechanics.js';
import { deriveBytes } from '../domain/secrets.js';
import { countScansInAudience } from './audience.js';
import { advanceBatch, createBatch, generateLot } from './batches.js';
import { poolCode, prizeCode } from './code-text.js';
import { type Db, nextSerial } from './db.js';
import { storeEntry } from './entries.js';
import { type Campaign, type Prize, awardState, loadCampaign } from './promotions.js';
import { recordRedemption } from './redemptions.js';
import { scanSeeder } from './scans.js';
import { serviceKeyId } from './keys.js';
import { createSession } from './sessions.js';

export const DEFAULT_HISTORY_SCANS = 3000;

const DAY_MS = 86_400_000;
const SPAN_MS = 90 * DAY_MS;
/** The newest history scan is an hour old, so its entry and redemption are in the past too. */
const QUIET_MS = 3_600_000;
const ENTRY_AFTER_MS = 45_000;
const MAX_PACKS_PER_SKU = 2000;
const SCANS_PER_PACK = 3;

const SHARE = { tester: 0.03, signedIn: 0.45, enters: 0.7, redeems: 0.6 };
const DEVICES: Array<[string, number]> = [['mobile', 0.82], ['tablet', 0.1], ['desktop', 0.08]];
/** Where anonymous scans happen; signed-in scans happen where their collector lives. */
const PLACES: Array<[string, string]> = [
  ['DE', 'Berlin'], ['DE', 'Hamburg'], ['DE', 'Munich'], ['DE', 'Cologne'], ['AT', 'Vienna'], ['AT', 'Graz'],
  ['CH', 'Zurich'], ['CH', 'Geneva'], ['FR', 'Paris'], ['NL', 'Amsterdam'], ['IT', 'Milan'], ['GB', 'London'], ['US', 'New York'],
];

/** Seeds `scans` history scans in one transaction: what a fresh world and `emulator reset` run. */
export function seedHistory(db: Db, seed: string, now: number, scans: number): void {
  if (scans <= 0) return;
  db.transaction(() => historyRun(db, seed, now, scans).add(scans))();
}

export interface HistoryRun {
  /** Inserts the run's next `count` scans (the caller holds the transaction); returns the production scan ids. */
  add(count: number): number[];
}

interface Pack {
  id: number;
  brandId: number;
  /** The promotion its SKU enters, if any. */
  promotionId: number | null;
}

interface Shopper {
  id: number;
  country: string | null;
  city: string | null;
  tester: number;
}

interface HistoryPromotion {
  campaign: Campaign;
  sessionId: number;
}

/**
 * Prepares a run of `total` scans: its packs and clock span. Scans are then added in order, in
 * chunks of any size. `testerScans: false` makes every scan a production one, as a seed whose
 * scans are each announced to the webhooks wants (tester scans never are).
 */
export function historyRun(db: Db, seed: string, now: number, total: number, { testerScans = true } = {}): HistoryRun {
  const run = nextSerial(db, 'history_run');
  const random = sfc32(deriveBytes(seed, `history:${run}`));
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
  const packs = seedPacks(db, seed, now, total);
  const collectors = db.prepare('SELECT id, country, city, tester FROM collectors ORDER BY id').all() as Shopper[];
  const shoppers = collectors.filter((collector) => !collector.tester);
  const testers = collectors.filter((collector) => collector.tester);
  const promotions = historyPromotions(db, seed, now);
  /** Whether a drawn prize can be awarded (domain/draw.ts), by its stock and budget as they stand: history takes none. */
  const awardStates = new Map<number, boolean>();
  const awardable = ({ promotion }: Campaign, prize: Prize) => {
    let can = awardStates.get(prize.id);
    if (can === undefined) {
      const { stock, budgetLeft } = awardState(db, promotion, prize);
      awardStates.set(prize.id, (can = canAward(prize, stock, budgetLeft)));
    }
    return can;
  };
  /** Pack → the collector who entered it in this run. */
  const entered = new Map<number, number>();
  const insertScan = scanSeeder(db);
  const start = now - SPAN_MS;
  let done = 0;

  const enter = (pack: Pack, collector: Shopper, country: string | null, scannedAt: number) => {
    const applies = pack.promotionId === null ? undefined : promotions.get(pack.promotionId);
    if (!applies || random() >= SHARE.enters) return;
    const { campaign, sessionId } = applies;
    const { promotion, prizes } = campaign;
    const enteredBy = entered.get(pack.id);
    const admission = admit({
      promotion, channel: 'service', now: scannedAt, collectorId: collector.id, country,
      existing: enteredBy === undefined ? undefined : { collector_id: enteredBy },
    });
    if (admission.kind !== 'open') return;
    entered.set(pack.id, collector.id);
    const at = scannedAt + ENTRY_AFTER_MS;
    const drawn = prizeForNumber(drawNumber(seed, promotion.id, pack.id), prizes);
    const prize = drawn && awardable(campaign, drawn) ? drawn : undefined;
    const maker = { campaign, sessionId, sandbox: false, collectorId: collector.id, unitId: pack.id, country, termsVersion: admission.terms.version };
    const entry = storeEntry(db, maker, at, prize && { prize, delivery: prize.delivery, code: historyCode(seed, campaign, pack.id) }, now);
    const delivered = entry.delivery_state === 'delivered';
    const redeemedAt = at + Math.floor(random() * 10 * DAY_MS);
    if (prize && delivered && random() < SHARE.redeems && redeemedAt < now) recordRedemption(db, entry.id, redeemedAt, prize.redemption_url ? 'online' : 'in_store');
  };

  return {
    add(count) {
      const production: number[] = [];
      const end = Math.min(total, done + count);
      let first: number | undefined;
      let last = 0;
      for (; done < end && packs.length > 0; done++) {
        const scannedAt = start + Math.floor(((done + random()) * (SPAN_MS - QUIET_MS)) / total);
        const pack = pick(packs);
        const roll = random();
        const collector = testerScans && roll < SHARE.tester && testers.length ? pick(testers) : roll < SHARE.signedIn && shoppers.length ? pick(shoppers) : null;
        const [country, city] = collector ? [collector.country, collector.city] : pick(PLACES);
        const tester = collector?.tester ?? 0;
        const id = insertScan(pack.id, pack.brandId, collector?.id ?? null, tester, country, city, weighted(DEVICES, random()), scannedAt);
        first ??= id;
        last = id;
        if (tester) continue;
        production.push(id);
        if (collector) enter(pack, collector, country, scannedAt);
      }
      if (first !== undefined) countScansInAudience(db, first, last);
      return production;
    },
  };
}

/** One history batch per SKU, with about a pack for every few scans of the run, its codes made as any batch's. */
function seedPacks(db: Db, seed: string, now: number, total: number): Pack[] {
  const skus = db.prepare('SELECT id, brand_id, promotion_id FROM skus ORDER BY id').all() as Array<{ id: number; brand_id: number; promotion_id: number | null }>;
  const perSku = Math.min(MAX_PACKS_PER_SKU, Math.max(1, Math.ceil(total / Math.max(1, skus.length) / SCANS_PER_PACK)));
  const unitsOf = db.prepare('SELECT id FROM units WHERE batch_id = ? ORDER BY id');
  return skus.flatMap((sku) => {
    const batch = createBatch(db, { skuId: sku.id, quantity: perSku, purpose: 'Seeded scan history', state: 'generating', now: now - SPAN_MS - 14 * DAY_MS });
    while (generateLot(db, seed, batch.id));
    advanceBatch(db, batch.id, 'generating', 'export_ready');
    return (unitsOf.all(batch.id) as Array<{ id: number }>).map(({ id }) => ({ id, brandId: sku.brand_id, promotionId: sku.promotion_id }));
  });
}

/** Every promotion, with the run's session on its service key that its history entries hang on. */
function historyPromotions(db: Db, seed: string, now: number): Map<number, HistoryPromotion> {
  const rows = db.prepare('SELECT id FROM promotions ORDER BY id').all() as Array<{ id: number }>;
  return new Map(rows.map(({ id }) => {
    const { session } = createSession(db, seed, { keyId: serviceKeyId(db, id, now), promotionId: id, sandbox: false, now });
    return [id, { campaign: loadCampaign(db, id), sessionId: session.id }];
  }));
}

/**
 * The code a history win delivered (null: none). A code unlock's were handed out before the pool
 * the fixture describes, which is what is left: they read like pool codes but are not taken from it.
 */
function historyCode(seed: string, { promotion, brand }: Campaign, unitId: number): string | null {
  switch (CODE_SOURCE[promotion.content.mechanic]) {
    case 'pack':
      return prizeCode(seed, brand.prefix, unitId);
    case 'pool':
      return poolCode(seed, promotion.content.code_pool!.prefix, `history:${unitId}`);
    case 'none':
      return null;
  }
}

function weighted<T>(choices: Array<[T, number]>, roll: number): T {
  let upper = 0;
  for (const [choice, share] of choices) {
    upper += share;
    if (roll < upper) return choice;
  }
  return choices[choices.length - 1]![0];
}

/** A small fast PRNG (sfc32), seeded from an HMAC of the seed: the same sequence on every run. */
function sfc32(bytes: Buffer): () => number {
  let [a, b, c, d] = [bytes.readUInt32BE(0), bytes.readUInt32BE(4), bytes.readUInt32BE(8), bytes.readUInt32BE(12)];
  return () => {
    a |= 0; b |= 0; c |= 0; d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}
