/** The seeded world of issue 13: two companies, five promotions of the three types, each with its own lifecycle. */
import { describe, expect, it } from 'vitest';
import { promotionEnv, testWorld } from '../world.js';

const API = '/api/v1';

describe('the default world (issue 13, spec §1, §2.1, public reference §2)', () => {
  it('holds two companies, each with its own reporting token and brands', () => {
    const { env } = testWorld();
    expect(env.companies).toEqual([
      { id: 1, name: 'Alpine Confectionery Group', reporting_token: expect.stringMatching(/^pkd_[0-9a-f]{64}$/), brands: ['alpenmilch', 'nordkakao'] },
      { id: 2, name: 'Baltic Snack Company', reporting_token: expect.stringMatching(/^pkd_[0-9a-f]{64}$/), brands: ['krispa'] },
    ]);
    expect(env.companies[0]!.reporting_token).not.toBe(env.companies[1]!.reporting_token);
    expect(env.reporting_token).toBe(env.companies[0]!.reporting_token);
  });

  it('holds five promotions: instant win, code unlock and content live, one scheduled and one ended', async () => {
    const t = testWorld();
    expect(t.env.promotions.map(({ id, slug, mechanic, brand_slug, default: isDefault }) => ({ id, slug, mechanic, brand_slug, default: isDefault }))).toEqual([
      { id: 1, slug: 'spring-instant-win', mechanic: 'instant_win', brand_slug: 'alpenmilch', default: true },
      { id: 2, slug: 'nordkakao-cafe-codes', mechanic: 'code_unlock', brand_slug: 'nordkakao', default: false },
      { id: 3, slug: 'krispa-behind-the-crunch', mechanic: 'content', brand_slug: 'krispa', default: false },
      { id: 4, slug: 'alpenmilch-summer-white', mechanic: 'instant_win', brand_slug: 'alpenmilch', default: false },
      { id: 5, slug: 'krispa-winter-crunch', mechanic: 'instant_win', brand_slug: 'krispa', default: false },
    ]);
    const overview = async (slug: string) => (await t.api.get(`/_emulator/console?promotion=${slug}`).expect(200)).body.promotion;
    for (const slug of ['spring-instant-win', 'nordkakao-cafe-codes', 'krispa-behind-the-crunch']) expect((await overview(slug)).live, slug).toBe(true);
    expect(Date.parse((await overview('alpenmilch-summer-white')).dates.start)).toBeGreaterThan(t.world.clock.now());
    expect(Date.parse((await overview('krispa-winter-crunch')).dates.end)).toBeLessThan(t.world.clock.now());
  });

  it('gives every promotion its own sandbox and production keys, packs and SKUs', () => {
    const { env } = testWorld();
    const keys = env.promotions.flatMap((promotion) => [promotion.sandbox_key, promotion.production_key]);
    expect(keys.every((key) => typeof key === 'string')).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
    const packs = env.promotions.flatMap((promotion) => promotion.packs.map((pack) => pack.code));
    expect(new Set(packs).size).toBe(packs.length);
    for (const promotion of env.promotions) {
      expect(promotion.packs.length, promotion.slug).toBeGreaterThan(0);
      expect(promotion.skus.length, promotion.slug).toBeGreaterThan(0);
    }
    const skus = env.promotions.flatMap((promotion) => promotion.skus.map((sku) => sku.prefix));
    expect(new Set(skus).size).toBe(skus.length);
  });

  it('knows in advance what each type gives: every admitted code-unlock or content entry wins', () => {
    const t = testWorld();
    expect(new Set(promotionEnv(t, 'nordkakao-cafe-codes').packs.map((pack) => pack.settles_as ?? pack.outcome))).toEqual(new Set(['won']));
    expect(new Set(promotionEnv(t, 'krispa-behind-the-crunch').packs.map((pack) => pack.outcome))).toEqual(new Set(['won']));
    expect(new Set(promotionEnv(t, 'spring-instant-win').packs.map((pack) => pack.outcome))).toEqual(new Set(['won', 'lost', 'pending', 'failed']));
  });

  it("keeps today's top-level env fields for the default promotion, and gives another promotion's with ?promotion=", async () => {
    const t = testWorld();
    const spring = promotionEnv(t, 'spring-instant-win');
    expect(t.env).toMatchObject({ promotion_id: 1, brand_slug: 'alpenmilch', sandbox_key: spring.sandbox_key, production_key: spring.production_key, packs: spring.packs });
    const codes = (await t.api.get('/_emulator/env?promotion=nordkakao-cafe-codes').expect(200)).body;
    const nordkakao = promotionEnv(t, 'nordkakao-cafe-codes');
    expect(codes).toMatchObject({
      promotion_id: 2, promotion: { slug: 'nordkakao-cafe-codes', mechanic: 'code_unlock' }, brand_slug: 'nordkakao',
      sandbox_key: nordkakao.sandbox_key, production_key: nordkakao.production_key, reporting_token: t.env.reporting_token,
    });
    expect((await t.api.get('/_emulator/env?promotion=3').expect(200)).body.reporting_token).toBe(t.env.companies[1]!.reporting_token);
    expect((await t.api.get('/_emulator/env?promotion=no-such-promotion')).status).toBe(404);
  });

  it("never lets one company read another company's brands (404, public reference §2)", async () => {
    const t = testWorld();
    const [alpine, baltic] = [t.env.companies[0]!, t.env.companies[1]!];
    const get = (path: string, token: string) => t.api.get(`${API}${path}`).set('Authorization', `Bearer ${token}`);
    expect((await get('/brands', alpine.reporting_token).expect(200)).body.data.map((brand: { slug: string }) => brand.slug)).toEqual(['alpenmilch', 'nordkakao']);
    expect((await get('/brands', baltic.reporting_token).expect(200)).body.data.map((brand: { slug: string }) => brand.slug)).toEqual(['krispa']);
    for (const path of ['/scans', '/collectors', '/redemptions', '/skus']) {
      expect((await get(`/brands/krispa${path}`, alpine.reporting_token)).status, path).toBe(404);
      expect((await get(`/brands/alpenmilch${path}`, baltic.reporting_token)).status, path).toBe(404);
      expect((await get(`/brands/krispa${path}`, baltic.reporting_token)).status, path).toBe(200);
    }
  });

  it('lists the promotions on the control plane and finds one by the callback URL registered for it', async () => {
    const t = testWorld();
    await t.api.post('/_emulator/console/callbacks?promotion=nordkakao-cafe-codes').send({ production: 'https://codes.agency.example/callback', preview: 'https://preview.codes.agency.example/callback' }).expect(200);
    const all = (await t.api.get('/_emulator/promotions').expect(200)).body.data;
    expect(all.map((promotion: { slug: string }) => promotion.slug)).toHaveLength(5);
    const found = (await t.api.get('/_emulator/promotions').query({ callback: 'https://CODES.agency.example/callback' }).expect(200)).body.data;
    expect(found).toEqual([expect.objectContaining({ id: 2, slug: 'nordkakao-cafe-codes', mechanic: 'code_unlock', brand: 'nordkakao', callbacks: { production: 'https://codes.agency.example/callback', preview: 'https://preview.codes.agency.example/callback' } })]);
    expect((await t.api.get('/_emulator/promotions').query({ callback: 'https://preview.codes.agency.example/callback' })).body.data.map((p: { id: number }) => p.id)).toEqual([2]);
    expect((await t.api.get('/_emulator/promotions').query({ callback: 'https://elsewhere.example/callback' })).body.data).toEqual([]);
  });
});
