/**
 * The three promotion types of spec §1 pass the same black-box tests: sessions, entries, delivery,
 * reporting and webhooks (issue 13; decisions 007 to 009). Each runs on its live promotion of the
 * default world, through the real journey and APIs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Fixture } from '../../emulator/fixture.js';
import { approveIntegration } from '../journey/support.js';
import { runningEmulator } from '../webhooks/emulator.js';
import { type TestWorld, promotionEnv, testWorld } from '../world.js';
import { journeyEntry } from './journey-flow.js';

const TYPES = [
  { mechanic: 'instant_win', slug: 'spring-instant-win', brand: 'alpenmilch', rewardType: 'coupon', code: /^AM-[A-Z0-9]{10}$/, redemptionUrl: 'https://shop.alpenmilch.example/redeem' },
  { mechanic: 'code_unlock', slug: 'nordkakao-cafe-codes', brand: 'nordkakao', rewardType: 'code', code: /^NKCAFE-[A-Z0-9]{10}$/, redemptionUrl: 'https://nordkakao.example/cafe' },
  { mechanic: 'content', slug: 'krispa-behind-the-crunch', brand: 'krispa', rewardType: 'content', code: null, redemptionUrl: 'https://krispa.example/films/behind-the-crunch' },
] as const;

type Type = (typeof TYPES)[number];

const callbackOf = (type: Type) => `https://${type.slug}.agency.example/callback`;

/** A world whose promotion of this type routes to its agency. */
async function approved(type: Type, fixture?: (f: Fixture) => Fixture): Promise<TestWorld> {
  const t = testWorld({ fixture });
  await approveIntegration(t, callbackOf(type), promotionEnv(t, type.slug));
  return t;
}

/** The first prize of the type's promotion delivered another way, so its packs' entries start pending. */
const deliveredAs = (type: Type, delivery: 'delayed' | 'delayed_failed') => (f: Fixture): Fixture => {
  const promotion = f.promotion.slug === type.slug ? f.promotion : f.promotions.find((candidate) => candidate.slug === type.slug)!;
  promotion.prizes[0]!.delivery = delivery;
  return f;
};

const expectDelivered = (type: Type, entry: { codes: string[]; redemption_url: string | null }) => {
  if (type.code) expect(entry.codes).toEqual([expect.stringMatching(type.code)]);
  else expect(entry.codes).toEqual([]);
  expect(entry.redemption_url).toBe(type.redemptionUrl);
};

describe.each(TYPES)('a $mechanic promotion ($slug)', (type) => {
  it('sandbox: each of the six scenarios gives its synthetic result, with what the type delivers', async () => {
    const t = testWorld();
    const { sandbox_key: key } = promotionEnv(t, type.slug);
    const results: Record<string, unknown> = {};
    for (const scenario of ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered']) {
      const session = await t.experience('post', '/sessions', key).send({ scenario }).expect(201);
      expect(session.body).toMatchObject({ sandbox: true, campaign: { mechanic: type.mechanic, brand: { slug: type.brand } } });
      const entry = await t.experience('post', '/session/entry', key, session.body.session_token).send({});
      results[scenario] = entry.status === 200 ? entry.body.entry.state : `${entry.status} ${entry.body.error}`;
      if (scenario === 'won') {
        expect(entry.body.entry.prize.reward_type).toBe(type.rewardType);
        expect(entry.body.entry.redemption_url).toBe(type.redemptionUrl);
        expect(entry.body.entry.codes).toHaveLength(type.code ? 1 : 0);
      }
    }
    expect(results).toEqual({ won: 'won', lost: 'lost', pending: 'pending', failed: 'failed', ineligible: '403 ineligible', already_entered: '409 already_entered' });
    const checklist = (await t.api.get(`/_emulator/console/checklist?promotion=${type.slug}`).expect(200)).body;
    expect(checklist.complete).toBe(true);
  });

  it('journey and entry: scan, authorize, exchange and enter give a won entry that delivers what the type gives', async () => {
    const t = await approved(type);
    const promotion = promotionEnv(t, type.slug);
    const pack = promotion.packs.find((candidate) => candidate.outcome === 'won')!.code;
    const { entry, sessionToken } = await journeyEntry({ app: t.app, db: t.world.db }, promotion, pack);
    expect(entry.status).toBe(200);
    expect(entry.body.entry).toMatchObject({ state: 'won', prize: { reward_type: type.rewardType } });
    expectDelivered(type, entry.body.entry);
    // A retry returns the same entry; the pack cannot be entered again by anyone else.
    const again = await t.experience('post', '/session/entry', promotion.production_key, sessionToken).send({ consent: { accepted: true, age_confirmed: true, terms_version: 'x' } });
    expect(again.body.entry).toEqual(entry.body.entry);
    const other = await journeyEntry({ app: t.app, db: t.world.db }, promotion, pack, 'jonas.bauer@example.test');
    expect(other.entry.status).toBe(409);
    expect(other.entry.body.error).toBe('already_entered');
  });

  it('delivery: a delayed prize is pending, then delivered on the clock; a failed delivery stays failed and is never redrawn', async () => {
    for (const [delivery, settled] of [['delayed', 'won'], ['delayed_failed', 'failed']] as const) {
      const t = await approved(type, deliveredAs(type, delivery));
      const promotion = promotionEnv(t, type.slug);
      const pack = promotion.packs.find((candidate) => candidate.outcome === 'pending' && candidate.settles_as === settled)!.code;
      const { entry, sessionToken } = await journeyEntry({ app: t.app, db: t.world.db }, promotion, pack);
      expect(entry.body.entry).toMatchObject({ state: 'pending', codes: [], redemption_url: null });
      const read = () => t.experience('get', '/session', promotion.production_key, sessionToken).expect(200);
      expect((await read()).body.delivery).toEqual({ state: 'processing' });
      t.world.clock.advance(30_000);
      const after = (await read()).body;
      expect(after.entry.state).toBe(settled);
      expect(after.delivery.state).toBe(settled === 'won' ? 'delivered' : 'failed');
      if (settled === 'won') expectDelivered(type, after.entry);
      else expect(after.entry.codes).toEqual([]);
      expect(after.entry.id).toBe(entry.body.entry.id);
    }
  });

  it('reporting: the scan outcome names the activation by its type and carries its reward; the redemption lists it', async () => {
    const t = await approved(type);
    const promotion = promotionEnv(t, type.slug);
    const pack = promotion.packs.find((candidate) => candidate.outcome === 'won')!.code;
    const { entry } = await journeyEntry({ app: t.app, db: t.world.db }, promotion, pack);
    const token = t.env.companies.find((company) => company.brands.includes(type.brand))!.reporting_token;
    const get = (path: string) => t.api.get(`/api/v1/brands/${type.brand}${path}`).set('Authorization', `Bearer ${token}`).expect(200);
    const [scan] = (await get('/scans?limit=1')).body.data;
    expect(scan.scan.unit.code).toBe(pack);
    expect(scan.eligibility).toEqual([{
      activation: { id: promotion.id, name: promotion.name, activation_type: type.mechanic }, outcome: 'won', entry_id: entry.body.entry.id,
      reward: { id: expect.any(Number), name: expect.any(String), reward_type: type.rewardType, tier: 'standard', face_value: expect.any(Number) },
    }]);
    expect((await get(`/scans/${scan.scan.id}`)).body).toEqual(scan);
    const [redemption] = (await get('/redemptions?limit=1')).body.data;
    expect(redemption).toMatchObject({ entry_id: entry.body.entry.id, status: 'claimed', activation: { activation_type: type.mechanic }, reward: { reward_type: type.rewardType } });
    expect(redemption.code).toBe(entry.body.entry.codes[0] ?? null);
  });
});

describe.each(TYPES)('webhooks of a $mechanic promotion ($slug)', (type) => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => stop?.());

  it('announce the scan as scan.processed and the entry as activation.entered, both with the type', async () => {
    const t = await runningEmulator();
    stop = () => t.running.close();
    await t.createSink({ name: 'crm' });
    const promotion = (await t.api.get(`/_emulator/env?promotion=${type.slug}`).expect(200)).body;
    await t.api.post(`/_emulator/console/callbacks?promotion=${type.slug}`).send({ production: callbackOf(type) }).expect(200);
    for (const scenario of ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered']) {
      const session = await t.api.post('/api/experience/v1/sessions').set('Authorization', `Bearer ${promotion.sandbox_key}`).send({ scenario }).expect(201);
      await t.api.post('/api/experience/v1/session/entry').set('Authorization', `Bearer ${promotion.sandbox_key}`).set('X-Service-Session', session.body.session_token).send({});
    }
    await t.api.post(`/_emulator/console/approve?promotion=${type.slug}`).send({}).expect(200);
    const pack = (promotion.packs as Array<{ code: string; outcome: string }>).find((candidate) => candidate.outcome === 'won')!.code;
    const { entry } = await journeyEntry({ app: t.running.baseUrl, db: t.world.db }, { ...promotion, id: promotion.promotion_id, slug: type.slug }, pack);
    const events = (await t.received('crm', 2)).reverse();
    expect(events.map((event) => event.event)).toEqual(['scan.processed', 'activation.entered']);
    expect(events.every((event) => event.verified && event.payload.brand.slug === type.brand)).toBe(true);
    const [scanned, entered] = events.map((event) => event.payload.data as Record<string, unknown>);
    // At the scan, no entry exists yet: the collector is signed in and has not accepted the terms.
    expect(scanned).toMatchObject({ scan: { unit: { code: pack } }, eligibility: [{ activation: { activation_type: type.mechanic }, outcome: 'needs_terms' }] });
    expect(entered).toMatchObject({
      entry_id: entry.body.entry.id, activation: { id: promotion.promotion_id, activation_type: type.mechanic }, outcome: 'won',
      reward: { reward_type: type.rewardType }, unit: { code: pack },
    });
  });
});
