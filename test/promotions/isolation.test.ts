/**
 * No key, token or session reaches another promotion or company: every credential of one promotion
 * is tried against every other promotion (issue 13). @see spec §2.1 (a key reaches exactly one
 * promotion), §2.3 and §5 rule 2 (a session only with the key that exchanged it), public reference §2
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { findBrandBySlug } from '../../emulator/store/promotions.js';
import { listProductionScans } from '../../emulator/store/scan-reads.js';
import { storedCount, storedRows } from '../support/stored.js';
import { type PromotionEnv, type TestWorld, VERIFIER, issueCodeFor, testWorld } from '../world.js';

let t: TestWorld;
/** Per promotion slug: a sandbox session token made with its own sandbox key. */
const sandboxSessions = new Map<string, string>();

beforeAll(async () => {
  t = testWorld();
  for (const promotion of t.env.promotions) {
    const created = await t.experience('post', '/sessions', promotion.sandbox_key).send({ scenario: 'won' }).expect(201);
    sandboxSessions.set(promotion.slug, created.body.session_token);
  }
});

const SLUGS = ['spring-instant-win', 'nordkakao-cafe-codes', 'krispa-behind-the-crunch', 'alpenmilch-summer-white', 'krispa-winter-crunch'];
const PAIRS = SLUGS.flatMap((from) => SLUGS.filter((to) => to !== from).map((to) => [from, to] as const));
const env = (slug: string): PromotionEnv => t.env.promotions.find((promotion) => promotion.slug === slug)!;

describe('one promotion\'s credentials reach only that promotion', () => {
  it.each(SLUGS)('the keys of %s read its own campaign and nothing else', async (slug) => {
    for (const key of [env(slug).sandbox_key, env(slug).production_key]) {
      const campaign = (await t.experience('get', '/campaign', key).expect(200)).body.campaign;
      expect(campaign).toMatchObject({ id: env(slug).id, name: env(slug).name, mechanic: env(slug).mechanic, brand: { slug: env(slug).brand_slug } });
    }
  });

  it.each(PAIRS)('a sandbox session of %s is invalid with a key of %s (401), and still valid with its own', async (from, to) => {
    const token = sandboxSessions.get(from)!;
    for (const key of [env(to).sandbox_key, env(to).production_key]) {
      const read = await t.experience('get', '/session', key, token);
      expect(read.status).toBe(401);
      expect(read.body.error).toBe('invalid_session');
      expect((await t.experience('post', '/session/entry', key, token).send({})).status).toBe(401);
    }
    expect((await t.experience('get', '/session', env(from).sandbox_key, token).expect(200)).body.campaign.id).toBe(env(from).id);
  });

  it.each(PAIRS)('an authorization code of %s cannot be exchanged with the production key of %s (400 invalid_grant)', async (from, to) => {
    const code = issueCodeFor(t, { promotion: env(from), packCode: env(from).packs[0]!.code });
    const sessions = () => storedCount(t.world.db, 'sessions');
    const before = sessions();
    const res = await t.experience('post', '/sessions', env(to).production_key).send({ authorization_code: code, code_verifier: VERIFIER });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_grant', message: expect.stringContaining('another promotion') });
    expect(sessions()).toBe(before);
  });

  it.each(PAIRS)('the console of %s cannot rotate or revoke a key of %s (404), which keeps working', async (from, to) => {
    const keyId = (await t.api.get(`/_emulator/console/keys?promotion=${to}`).expect(200)).body.data[0].id as number;
    expect((await t.api.post(`/_emulator/console/keys/${keyId}/revoke?promotion=${from}`).send({})).status).toBe(404);
    expect((await t.api.post(`/_emulator/console/keys/${keyId}/rotate?promotion=${from}`).send({})).status).toBe(404);
    expect((await t.api.get(`/_emulator/console/keys?promotion=${to}`)).body.data[0]).toMatchObject({ id: keyId, status: 'active' });
  });

  it.each(SLUGS)('the sandbox calls of %s count on its own checklist only', async (slug) => {
    const own = (await t.api.get(`/_emulator/console/checklist?promotion=${slug}`).expect(200)).body;
    expect(own.items.find((item: { scenario: string }) => item.scenario === 'won')).toEqual({ scenario: 'won', session_created: true, entry_submitted: false });
    expect(own.promotion.slug).toBe(slug);
    const fresh = testWorld();
    await fresh.experience('post', '/sessions', env(slug).sandbox_key).send({ scenario: 'lost' }).expect(201);
    for (const other of SLUGS.filter((candidate) => candidate !== slug)) {
      const checklist = (await fresh.api.get(`/_emulator/console/checklist?promotion=${other}`).expect(200)).body;
      expect(checklist.items.every((item: { session_created: boolean }) => !item.session_created), other).toBe(true);
    }
  });

  it.each(SLUGS)('a production entry made with the keys of %s lands in that promotion', async (slug) => {
    const live = ['spring-instant-win', 'nordkakao-cafe-codes', 'krispa-behind-the-crunch'].includes(slug);
    const fresh = testWorld();
    const promotion = fresh.env.promotions.find((candidate) => candidate.slug === slug)!;
    const code = issueCodeFor(fresh, { promotion, packCode: promotion.packs[0]!.code, collectorEmail: 'anna.weber@example.test' });
    const session = await fresh.experience('post', '/sessions', promotion.production_key).send({ authorization_code: code, code_verifier: VERIFIER }).expect(201);
    const consent = { consent: { accepted: true, age_confirmed: true, terms_version: session.body.terms.version } };
    const entry = await fresh.experience('post', '/session/entry', promotion.production_key, session.body.session_token).send(consent);
    if (!live) {
      expect(entry.status).toBe(slug === 'krispa-winter-crunch' ? 410 : 409);
      return;
    }
    expect(entry.status).toBe(200);
    const stored = storedRows<{ id: number; promotion_id: number }>(fresh.world.db, 'entries').find((one) => one.id === entry.body.entry.id)!;
    expect({ promotion_id: stored.promotion_id }).toEqual({ promotion_id: promotion.id });
  });
});

describe('one company\'s reporting token reaches only its own brands', () => {
  const BRANDS: Array<[number, string]> = [[0, 'alpenmilch'], [0, 'nordkakao'], [1, 'krispa']];
  it.each(BRANDS.flatMap(([owner, slug]) => [0, 1].map((company) => [company, slug, company === owner] as const)))(
    'the token of company %i on brand %s: reached %s',
    async (company, slug, reached) => {
      const token = t.env.companies[company]!.reporting_token;
      const scan = listProductionScans(t.world.db, findBrandBySlug(t.world.db, slug)!.id, { limit: 1, offset: 0 })[0]!;
      for (const path of ['/scans', `/scans/${scan.id}`, '/collectors', '/redemptions', '/skus']) {
        const res = await t.api.get(`/api/v1/brands/${slug}${path}`).set('Authorization', `Bearer ${token}`);
        expect(res.status, path).toBe(reached ? 200 : 404);
      }
    },
  );
});
