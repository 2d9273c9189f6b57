/**
 * Cross-brand and cross-key access, table-driven over every endpoint of both APIs. A second brand
 * of the company runs its own promotion with its own keys; a second company has its own token.
 * Every refusal is the documented one, and a refused call stores nothing.
 * @see spec §1 (reporting: brand-scoped), §2.1, §4.1 rule 3, §5; README "Experience API errors"
 */
import { expect, test } from 'vitest';
import { s256 } from '../../emulator/domain/pkce.js';
import { issueAuthCode } from '../../emulator/store/codes.js';
import { type Environment, createAgencyKey, revokeKey } from '../../emulator/store/keys.js';
import { batchesOfSku, createBatch } from '../../emulator/store/batches.js';
import { createCollector, findCollectorByEmail } from '../../emulator/store/collectors.js';
import { findBrandBySlug } from '../../emulator/store/promotions.js';
import { listProductionScans } from '../../emulator/store/scan-reads.js';
import { listSkus } from '../../emulator/store/skus.js';
import { productionUnitsOfBrand, unitsOfSku } from '../../emulator/store/units.js';
import { insertScan } from '../../emulator/store/scans.js';
import { createSession } from '../../emulator/store/sessions.js';
import { storedCount } from '../support/stored.js';
import { BRAND, OTHER_BRAND, RIVAL_TOKEN, addRivalCompany, reportingWorld } from '../reporting/reporting.js';
import { type TestWorld, VERIFIER, anotherPromotion, consentFor, productionSession, testWorld } from '../world.js';

const count = (t: TestWorld, table: string) => storedCount(t.world.db, table);

/** Our promotion (alpenmilch) and a rival promotion of the other brand (nordkakao), with keys and sessions of each kind. */
async function twoPromotions() {
  const t = testWorld();
  const { db, seed, clock } = t.world;
  const now = clock.now();
  const ours = t.env.promotion_id;
  const rival = anotherPromotion(t, { slug: 'dark-draw', name: 'Dark Draw', brand: OTHER_BRAND });
  const key = (promotionId: number, environment: Environment, at = now) => createAgencyKey(db, seed, { promotionId, environment, now: at });
  const unitOf = (slug: string) => productionUnitsOfBrand(db, findBrandBySlug(db, slug)!.id)[0]!.id;
  const anna = findCollectorByEmail(db, 'anna.weber@example.test')!.id;
  const codeFor = (promotionId: number, slug: string) =>
    issueAuthCode(db, seed, { promotionId, collectorId: anna, unitId: unitOf(slug), country: 'DE', codeChallenge: s256(VERIFIER), now });
  const sessionWith = (keyId: number, promotionId: number, slug: string) =>
    createSession(db, seed, { keyId, promotionId, sandbox: false, collectorId: anna, unitId: unitOf(slug), country: 'DE', now }).token;

  const rivalProduction = key(rival, 'production');
  const revoked = key(ours, 'production');
  const expired = key(ours, 'production', now - 90 * 86_400_000);
  const keys = {
    ourSandbox: t.env.sandbox_key!,
    ourProduction: t.env.production_key!,
    ourSecondProduction: key(ours, 'production').secret,
    rivalSandbox: key(rival, 'sandbox').secret,
    rivalProduction: rivalProduction.secret,
    revoked: revoked.secret,
    expired: expired.secret,
  };
  const sandboxSession = async (secret: string) => (await t.experience('post', '/sessions', secret).send({ scenario: 'won' })).body.session_token as string;
  const sessions = {
    ourSandbox: await sandboxSession(keys.ourSandbox),
    ourProduction: await productionSession(t),
    rivalSandbox: await sandboxSession(keys.rivalSandbox),
    rivalProduction: sessionWith(rivalProduction.id, rival, OTHER_BRAND),
    revoked: sessionWith(revoked.id, ours, BRAND),
    expired: sessionWith(expired.id, ours, BRAND),
  };
  revokeKey(db, revoked.id, now);
  return { t, keys, sessions, codes: { ours: () => codeFor(ours, BRAND), rival: () => codeFor(rival, OTHER_BRAND) } };
}

type World = Awaited<ReturnType<typeof twoPromotions>>;
type KeyName = keyof World['keys'];
type SessionName = keyof World['sessions'];

// One world for all cases: each asserts that its refused call changed nothing.
let shared: Promise<World> | undefined;
const promotions = () => (shared ??= twoPromotions());

const SESSION_ENDPOINTS = [
  ['GET', '/session'],
  ['POST', '/session/entry'],
] as const;

const SESSION_CASES: Array<[string, KeyName, SessionName, number, string]> = [
  ["the other brand's production key with our production session", 'rivalProduction', 'ourProduction', 401, 'invalid_session'],
  ["the other brand's sandbox key with our sandbox session", 'rivalSandbox', 'ourSandbox', 401, 'invalid_session'],
  ["our production key with the other brand's production session", 'ourProduction', 'rivalProduction', 401, 'invalid_session'],
  ["our sandbox key with the other brand's sandbox session", 'ourSandbox', 'rivalSandbox', 401, 'invalid_session'],
  ['a second production key of our promotion with our production session', 'ourSecondProduction', 'ourProduction', 401, 'invalid_session'],
  ['our sandbox key with our production session', 'ourSandbox', 'ourProduction', 401, 'invalid_session'],
  ['our production key with our sandbox session', 'ourProduction', 'ourSandbox', 401, 'invalid_session'],
  ['a revoked key with its own session', 'revoked', 'revoked', 401, 'key_revoked'],
  ['an expired key with its own session', 'expired', 'expired', 401, 'key_expired'],
];

test.each(SESSION_CASES.flatMap(([name, key, session, status, error]) => SESSION_ENDPOINTS.map(([method, path]) => [`${method} ${path}`, name, status, error, key, session] as const)))(
  '%s with %s is refused: %i %s, and nothing is stored',
  async (endpoint, _name, status, error, key, session) => {
    const w = await promotions();
    const [method, path] = endpoint.split(' ') as ['GET' | 'POST', string];
    const before = { entries: count(w.t, 'entries'), sessions: count(w.t, 'sessions') };
    const res = await w.t.experience(method === 'GET' ? 'get' : 'post', path, w.keys[key], w.sessions[session]).send(method === 'POST' ? consentFor({ version: 'de-2026-03' }) : undefined);
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(error);
    expect(res.text).not.toContain('Spring Instant Win');
    expect({ entries: count(w.t, 'entries'), sessions: count(w.t, 'sessions') }).toEqual(before);
  },
);

const ourCode = (w: World) => ({ authorization_code: w.codes.ours(), code_verifier: VERIFIER });
const KEY_CASES: Array<[string, 'GET /campaign' | 'POST /sessions', number, string, KeyName, (w: World) => object]> = [
  ['a revoked key', 'GET /campaign', 401, 'key_revoked', 'revoked', () => ({})],
  ['a revoked key', 'POST /sessions', 401, 'key_revoked', 'revoked', ourCode],
  ['an expired key', 'GET /campaign', 401, 'key_expired', 'expired', () => ({})],
  ['an expired key', 'POST /sessions', 401, 'key_expired', 'expired', ourCode],
  ["the other brand's production key exchanging our code", 'POST /sessions', 400, 'invalid_grant', 'rivalProduction', ourCode],
  ["our production key exchanging the other brand's code", 'POST /sessions', 400, 'invalid_grant', 'ourProduction', (w) => ({ authorization_code: w.codes.rival(), code_verifier: VERIFIER })],
  ['our sandbox key exchanging our code', 'POST /sessions', 400, 'invalid_request', 'ourSandbox', ourCode],
];

test.each(KEY_CASES)('%s on %s is refused: %i %s, and no session is created', async (_name, endpoint, status, error, key, body) => {
  const w = await promotions();
  const sessions = count(w.t, 'sessions');
  const res = endpoint === 'GET /campaign' ? await w.t.experience('get', '/campaign', w.keys[key]) : await w.t.experience('post', '/sessions', w.keys[key]).send(body(w));
  expect(res.status).toBe(status);
  expect(res.body.error).toBe(error);
  expect(count(w.t, 'sessions')).toBe(sessions);
});

test('every session refused above answers its own key, so the refusals come from the binding', async () => {
  const w = await promotions();
  const own: Array<[KeyName, SessionName]> = [['ourSandbox', 'ourSandbox'], ['ourProduction', 'ourProduction'], ['rivalSandbox', 'rivalSandbox'], ['rivalProduction', 'rivalProduction']];
  for (const [key, session] of own) expect((await w.t.experience('get', '/session', w.keys[key], w.sessions[session])).status, session).toBe(200);
});

/** The company's two brands, a rival company, and ids of each one's scans, collectors, SKUs and batches. */
async function reportingIds() {
  const t = reportingWorld();
  const { db } = t.world;
  const { slug: rival } = addRivalCompany(t);
  const brandId = (slug: string) => findBrandBySlug(db, slug)!.id;
  const scanOf = (slug: string) => listProductionScans(db, brandId(slug), { limit: 100, offset: 0 }).find((scan) => scan.collector_id !== null)!;
  const skuOf = (slug: string) => listSkus(db, brandId(slug))[0]!.id;
  const batchOf = (sku: number) => batchesOfSku(db, sku)[0]!.id;
  const otherBrandOnly = createCollector(db, { email: 'nk.only@example.test', country: 'DE', city: null, now: 0 }).id;
  const nkUnit = unitsOfSku(db, skuOf(OTHER_BRAND))[0]!.id;
  insertScan(db, { unitId: nkUnit, brandId: brandId(OTHER_BRAND), collectorId: otherBrandOnly, tester: false, country: 'DE', city: 'Berlin', deviceType: 'mobile', scannedAt: t.world.clock.now() });
  const rivalSku = (await t.post(`/brands/${rival}/skus`, { name: 'Rival bar', prefix: 'RV-BAR' }, RIVAL_TOKEN).expect(201)).body.id as number;
  const rivalBatch = createBatch(db, { skuId: rivalSku, quantity: 1, purpose: 'Rival run', state: 'export_ready', now: t.world.clock.now() }).id;
  const ourScan = scanOf(BRAND);
  const ours = { scan: ourScan.id, collector: ourScan.collector_id!, sku: skuOf(BRAND) };
  return {
    t, rival,
    ids: {
      ours: { ...ours, batch: batchOf(ours.sku) },
      otherBrand: { scan: scanOf(OTHER_BRAND).id, collector: otherBrandOnly, sku: skuOf(OTHER_BRAND), batch: batchOf(skuOf(OTHER_BRAND)) },
      rival: { sku: rivalSku, batch: rivalBatch },
    },
  };
}

type ReportingIds = Awaited<ReturnType<typeof reportingIds>>;
type Call = ['GET' | 'POST', (w: ReportingIds) => string, 'ours' | 'rival'];

let sharedIds: Promise<ReportingIds> | undefined;
const reporting = () => (sharedIds ??= reportingIds());

const BATCH = { quantity: 1, purpose: 'x' };

/** Every route of our brand, with one of our ids where it takes one. */
const OUR_BRAND_ROUTES: Array<[string, Call[0], Call[1]]> = [
  ['scans', 'GET', () => `/brands/${BRAND}/scans`],
  ['a scan', 'GET', (w) => `/brands/${BRAND}/scans/${w.ids.ours.scan}`],
  ['collectors', 'GET', () => `/brands/${BRAND}/collectors`],
  ['a collector', 'GET', (w) => `/brands/${BRAND}/collectors/${w.ids.ours.collector}`],
  ['redemptions', 'GET', () => `/brands/${BRAND}/redemptions`],
  ['SKUs', 'GET', () => `/brands/${BRAND}/skus`],
  ['SKU creation', 'POST', () => `/brands/${BRAND}/skus`],
  ['batch creation', 'POST', (w) => `/brands/${BRAND}/skus/${w.ids.ours.sku}/batches`],
  ['a batch download', 'GET', (w) => `/brands/${BRAND}/skus/${w.ids.ours.sku}/batches/${w.ids.ours.batch}/download`],
];

const REPORTING_CASES: Array<[string, Call]> = [
  ...OUR_BRAND_ROUTES.map(([name, method, path]): [string, Call] => [`the rival company's token on our brand's ${name}`, [method, path, 'rival']]),
  ["our brand's slug with the other brand's scan", ['GET', (w) => `/brands/${BRAND}/scans/${w.ids.otherBrand.scan}`, 'ours']],
  ["our brand's slug with a collector of the other brand only", ['GET', (w) => `/brands/${BRAND}/collectors/${w.ids.otherBrand.collector}`, 'ours']],
  ["our brand's slug with the other brand's SKU, creating a batch", ['POST', (w) => `/brands/${BRAND}/skus/${w.ids.otherBrand.sku}/batches`, 'ours']],
  ["our brand's slug with the other brand's SKU and batch, downloading", ['GET', (w) => `/brands/${BRAND}/skus/${w.ids.otherBrand.sku}/batches/${w.ids.otherBrand.batch}/download`, 'ours']],
  ["our SKU with the other brand's batch, downloading", ['GET', (w) => `/brands/${BRAND}/skus/${w.ids.ours.sku}/batches/${w.ids.otherBrand.batch}/download`, 'ours']],
  ["our brand's slug with the rival's SKU, creating a batch", ['POST', (w) => `/brands/${BRAND}/skus/${w.ids.rival.sku}/batches`, 'ours']],
  ["our SKU with the rival's batch, downloading", ['GET', (w) => `/brands/${BRAND}/skus/${w.ids.ours.sku}/batches/${w.ids.rival.batch}/download`, 'ours']],
  ["the rival's slug with our scan", ['GET', (w) => `/brands/${w.rival}/scans/${w.ids.ours.scan}`, 'rival']],
  ["the rival's slug with our collector", ['GET', (w) => `/brands/${w.rival}/collectors/${w.ids.ours.collector}`, 'rival']],
  ["the rival's slug with our SKU, creating a batch", ['POST', (w) => `/brands/${w.rival}/skus/${w.ids.ours.sku}/batches`, 'rival']],
  ["the rival's SKU with our batch, downloading", ['GET', (w) => `/brands/${w.rival}/skus/${w.ids.rival.sku}/batches/${w.ids.ours.batch}/download`, 'rival']],
];

test.each(REPORTING_CASES)('reporting: %s is 404 not_found, and nothing is created', async (_name, [method, path, token]) => {
  const w = await reporting();
  const bearer = token === 'ours' ? w.t.env.reporting_token : RIVAL_TOKEN;
  const before = { skus: count(w.t, 'skus'), batches: count(w.t, 'batches') };
  const res = method === 'GET' ? await w.t.get(path(w), bearer) : await w.t.post(path(w), path(w).endsWith('/skus') ? { name: 'Stolen bar', prefix: 'AM-STL' } : BATCH, bearer);
  expect(res.status).toBe(404);
  expect(res.body).toEqual({ error: 'not_found' });
  expect({ skus: count(w.t, 'skus'), batches: count(w.t, 'batches') }).toEqual(before);
});

test('reporting: each id used above is reachable by its own company and brand, so the 404s come from the scoping', async () => {
  const w = await reporting();
  const { ours, otherBrand } = w.ids;
  for (const path of [`/brands/${BRAND}/scans/${ours.scan}`, `/brands/${BRAND}/collectors/${ours.collector}`, `/brands/${OTHER_BRAND}/scans/${otherBrand.scan}`, `/brands/${OTHER_BRAND}/collectors/${otherBrand.collector}`]) {
    expect((await w.t.get(path)).status, path).toBe(200);
  }
  expect((await w.t.get(`/brands/${w.rival}/skus/${w.ids.rival.sku}/batches/${w.ids.rival.batch}/download`, RIVAL_TOKEN)).status).not.toBe(404);
  expect((await w.t.post(`/brands/${OTHER_BRAND}/skus/${otherBrand.sku}/batches`, BATCH)).status).toBe(202);
});
