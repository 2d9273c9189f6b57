/**
 * The emulator under load, inside its child process: the default fixture in a fresh data folder,
 * spec §8 rate limits raised so they do not cap throughput, and pools of sessions created ahead
 * of the run so that every measured entry is a first entry on its own session (and, in
 * production, its own pack) rather than the idempotent retry.
 */
import { join } from 'node:path';
import { pino } from 'pino';
import type { Limits } from '../emulator/domain/limits.js';
import { envValues } from '../emulator/use-cases/control/env-values.js';
import { s256 } from '../emulator/domain/pkce.js';
import { isRefused } from '../emulator/wire-contract.js';
import { createSandboxSession } from '../emulator/use-cases/sandbox.js';
import { exchangeCode } from '../emulator/use-cases/session-open.js';
import { termsFor } from '../emulator/domain/terms.js';
import { loadFixture } from '../emulator/fixture.js';
import { createLogger } from '../emulator/logger.js';
import { type Running, startServer } from '../emulator/server.js';
import { issueAuthCode } from '../emulator/store/codes.js';
import { type AgencyKey, type Environment, createAgencyKey, findKeyBySecret } from '../emulator/store/keys.js';
import { getPromotion } from '../emulator/store/promotions.js';
import { DEFAULT_FIXTURE_PATH } from './paths.js';
import type { IssuedCode, PooledSession } from './servers.js';

/** High enough that no measurement comes near them; the window stays the spec's minute. */
export const RAISED_LIMITS: Limits = { perSession: 1_000_000_000, perKey: 1_000_000_000, windowMs: 60_000 };

const VERIFIER = 'bench-verifier-0123456789-abcdefghijklmnopqrstuvwxyz';
const BATCH = 500;

type World = Running['world'];

export async function startEmulator(dataDir: string): Promise<Running> {
  const fixture = loadFixture(DEFAULT_FIXTURE_PATH);
  const logger = createLogger('emulator', { level: 'info' }, pino.destination({ dest: join(dataDir, 'emulator.log'), mkdir: true, sync: false }));
  const running = await startServer({
    fixture, data: dataDir, host: '127.0.0.1', port: 0, logger,
    clock: clockInside(fixture.promotion.dates), config: { limits: RAISED_LIMITS },
  });
  keepEveryDrawHonest(running.world);
  return running;
}

/** Real time, shifted into the campaign's dates when today is outside them (so entries stay 2xx). */
function clockInside(dates: { start: string; end: string }) {
  const start = Date.parse(dates.start);
  const end = Date.parse(dates.end);
  const now = Date.now();
  return now > start && now < end ? { mode: 'real' as const } : { mode: 'offset' as const, offsetMs: Math.round((start + end) / 2) - now };
}

/**
 * Prize stock and budget raised so every draw of the run follows the odds (winners keep taking
 * stock and budget) instead of all turning into losses once the fixture's budget is spent.
 */
function keepEveryDrawHonest(world: World): void {
  world.db.prepare("UPDATE promotions SET content = json_set(content, '$.budget', 1e12)").run();
  world.db.prepare('UPDATE prizes SET stock = 1000000000').run();
}

export function agencyKeys(world: World): { sandbox: AgencyKey; production: AgencyKey; sandboxKey: string; productionKey: string } {
  const env = envValues(world);
  if (!env.sandbox_key || !env.production_key) throw new Error('the default fixture has no sandbox or no production key');
  return { sandbox: findKeyBySecret(world.db, env.sandbox_key)!, production: findKeyBySecret(world.db, env.production_key)!, sandboxKey: env.sandbox_key, productionKey: env.production_key };
}

/** Sandbox `won` sessions; each one's first entry inserts an entry. */
export function sandboxSessions(world: World, count: number): PooledSession[] {
  const { sandbox } = agencyKeys(world);
  return inBatches(world, count, () => ({ token: createSandboxSession(world, sandbox, 'won').token, body: '{}' }));
}

/**
 * Production sessions as the journey and the agency make them: a code from `authCodes`, exchanged
 * with the verifier through the use case.
 */
export function productionSessions(world: World, count: number): PooledSession[] {
  const { production } = agencyKeys(world);
  const codes = authCodes(world, count);
  return inBatches(world, count, (i) => {
    const opened = exchangeCode(world, production, JSON.parse(codes[i]!.exchange) as { authorization_code: string; code_verifier: string });
    if (isRefused(opened)) throw new Error(`the bench's code exchange was refused: ${opened.refused}`);
    const { token } = opened;
    return { token, body: codes[i]!.entry };
  });
}

/**
 * Authorization codes as the journey issues them: each for a new pack and an eligible collector
 * (rotating over those whose country the campaign admits), with a PKCE challenge. Each comes with
 * the body that exchanges it and the entry body carrying consent to its collector's terms.
 */
export function authCodes(world: World, count: number): IssuedCode[] {
  const promotion = getPromotion(world.db, agencyKeys(world).production.promotion_id);
  const units = addPacks(world, promotion.brand_id, count);
  const collectors = eligibleCollectors(world, promotion.content.countries);
  const challenge = s256(VERIFIER);
  return inBatches(world, count, (i) => {
    const collector = collectors[i % collectors.length]!;
    const code = issueAuthCode(world.db, world.seed, {
      promotionId: promotion.id, collectorId: collector.id, unitId: units[i]!, country: collector.country, codeChallenge: challenge, now: world.clock.now(),
    });
    const terms = termsFor(promotion, collector.country);
    return {
      exchange: JSON.stringify({ authorization_code: code, code_verifier: VERIFIER }),
      entry: JSON.stringify({ consent: { accepted: true, age_confirmed: true, terms_version: terms.version } }),
    };
  });
}

/** `count` more agency keys on the default promotion, alternately sandbox and production. */
export function moreKeys(world: World, count: number): Array<{ environment: Environment; secret: string }> {
  const { promotion_id: promotionId } = agencyKeys(world).production;
  return inBatches(world, count, (i) => {
    const environment: Environment = i % 2 === 0 ? 'sandbox' : 'production';
    return { environment, secret: createAgencyKey(world.db, world.seed, { promotionId, environment, now: world.clock.now() }).secret };
  });
}

export function entryCounts(world: World): { sandbox: number; production: number } {
  const rows = world.db.prepare('SELECT sandbox, count(*) AS n FROM entries GROUP BY sandbox').all() as Array<{ sandbox: number; n: number }>;
  return { sandbox: rows.find((row) => row.sandbox === 1)?.n ?? 0, production: rows.find((row) => row.sandbox === 0)?.n ?? 0 };
}

/** A new production batch of `count` packs of the brand's first SKU; returns the unit ids. */
function addPacks(world: World, brandId: number, count: number): number[] {
  const { db, clock } = world;
  return db.transaction(() => {
    const sku = db.prepare('SELECT id, prefix FROM skus WHERE brand_id = ? ORDER BY id LIMIT 1').get(brandId) as { id: number; prefix: string };
    const batch = db
      .prepare("INSERT INTO batches (sku_id, quantity, purpose, state, created_at) VALUES (?, ?, 'bench', 'export_ready', ?) RETURNING id")
      .get(sku.id, count, clock.now()) as { id: number };
    const insert = db.prepare("INSERT INTO units (batch_id, sku_id, code, kind) VALUES (?, ?, ?, 'production') RETURNING id");
    return Array.from({ length: count }, (_, i) => (insert.get(batch.id, sku.id, `${sku.prefix}-BENCH${batch.id}-${i}`) as { id: number }).id);
  })();
}

function eligibleCollectors(world: World, countries: string[]): Array<{ id: number; country: string }> {
  const rows = world.db.prepare('SELECT id, country FROM collectors WHERE tester = 0 AND country IS NOT NULL ORDER BY id').all() as Array<{ id: number; country: string }>;
  const eligible = rows.filter((row) => countries.length === 0 || countries.includes(row.country));
  if (eligible.length === 0) throw new Error('the default fixture has no collector the campaign admits');
  return eligible;
}

/** Runs `make` count times, committing every BATCH calls instead of once per call. */
function inBatches<T>(world: World, count: number, make: (i: number) => T): T[] {
  const made: T[] = [];
  const batch = world.db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) made.push(make(i));
  });
  for (let from = 0; from < count; from += BATCH) batch(from, Math.min(count, from + BATCH));
  return made;
}
