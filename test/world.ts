/** Builders for tests: a fresh in-memory world on a frozen clock, and request helpers. */
import { Writable } from 'node:stream';
import request from 'supertest';
import { createApp } from '../emulator/app.js';
import type { Config } from '../emulator/context.js';
import { type Fixture, loadFixture } from '../emulator/fixture.js';
import { createLogger } from '../emulator/logger.js';
import { openWorld } from '../emulator/server.js';
import { issueAuthCode } from '../emulator/store/codes.js';
import { s256 } from '../emulator/domain/pkce.js';
import { envValues } from '../emulator/use-cases/control/env-values.js';
import { findCollectorByEmail } from '../emulator/store/collectors.js';
import { findUnitByCode } from '../emulator/store/units.js';
import { findBrandBySlug, getPromotion } from '../emulator/store/promotions.js';
import { seedPromotion } from '../emulator/store/world.js';

export const FROZEN_AT = Date.parse('2026-11-21T10:00:00.000Z');
export const DEFAULT_FIXTURE = loadFixture(new URL('../fixtures/default.json', import.meta.url).pathname);

export function testWorld(options: { fixture?: (fixture: Fixture) => Fixture; config?: Partial<Config>; seed?: string } = {}) {
  const logLines: string[] = [];
  const sink = new Writable({ write(chunk, _encoding, done) { logLines.push(String(chunk)); done(); } });
  const fixture = options.fixture ? options.fixture(structuredClone(DEFAULT_FIXTURE)) : DEFAULT_FIXTURE;
  const world = openWorld({
    fixture, seed: options.seed, data: ':memory:', clock: { mode: 'frozen', frozenAt: FROZEN_AT },
    config: options.config, logger: createLogger('emulator', { level: 'debug' }, sink),
  });
  const app = createApp(world);
  const env = envValues(world);
  const api = request(app);
  const experience = (method: 'get' | 'post', path: string, key: string | null = env.sandbox_key, session?: string) => {
    let call = api[method](`/api/experience/v1${path}`);
    if (key) call = call.set('Authorization', `Bearer ${key}`);
    if (session) call = call.set('X-Service-Session', session);
    return call;
  };
  return { world, app, env, api, experience, logLines };
}

export type TestWorld = ReturnType<typeof testWorld>;

/** A second promotion of the default one's content, with one Mug prize, on the brand given (the default's when omitted); its id. */
export function anotherPromotion(t: TestWorld, options: { slug: string; name: string; brand?: string }): number {
  const { db, seed } = t.world;
  const ours = getPromotion(db, t.env.promotion_id);
  const mug = { name: 'Mug', odds: 0.5, stock: 5, face_value: 3, reward_type: 'physical', tier: 'standard', delivery: 'instant' } as const;
  const brandId = options.brand ? findBrandBySlug(db, options.brand)!.id : ours.brand_id;
  return seedPromotion(db, seed, { ...ours.content, slug: options.slug, name: options.name, ...(options.brand ? { brand: options.brand } : {}), prizes: [mug] }, brandId);
}

export type PromotionEnv = TestWorld['env']['promotions'][number];

/** One promotion's values in `emulator env --json`, by slug. */
export function promotionEnv(t: TestWorld, slug: string): PromotionEnv {
  const found = t.env.promotions.find((promotion) => promotion.slug === slug);
  if (!found) throw new Error(`no promotion ${slug} in the test world`);
  return found;
}

export const VERIFIER = 'v'.repeat(20) + '-verifier-0123456789abcdefghij';

/** What the journey does before the agency's exchange: a code bound to a collector, a pack (of the default promotion unless said) and a challenge. */
export function issueCodeFor(t: TestWorld, options: { packCode?: string; collectorEmail?: string; country?: string | null; verifier?: string; promotion?: PromotionEnv } = {}) {
  const { db, clock, seed } = t.world;
  const promotion = options.promotion ?? t.env;
  const packCode = options.packCode ?? promotion.packs.find((pack) => pack.outcome === 'won')!.code;
  const unit = findUnitByCode(db, packCode)!;
  const collector = findCollectorByEmail(db, options.collectorEmail ?? 'anna.weber@example.test')!;
  return issueAuthCode(db, seed, {
    promotionId: options.promotion?.id ?? t.env.promotion_id, collectorId: collector.id, unitId: unit.id,
    country: options.country === undefined ? collector.country : options.country,
    codeChallenge: s256(options.verifier ?? VERIFIER), now: clock.now(),
  });
}

/** A production session for a collector and pack, through the real exchange endpoint. */
export async function productionSession(t: TestWorld, options: Parameters<typeof issueCodeFor>[1] = {}): Promise<string> {
  const code = issueCodeFor(t, options);
  const res = await t.experience('post', '/sessions', (options.promotion ?? t.env).production_key).send({ authorization_code: code, code_verifier: options.verifier ?? VERIFIER });
  if (res.status !== 201) throw new Error(`exchange failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.session_token as string;
}

export function consentFor(terms: { version: string }) {
  return { consent: { accepted: true, age_confirmed: true, terms_version: terms.version } };
}
