import { describe, expect, it } from 'vitest';
import type { Fixture } from '../../emulator/fixture.js';
import { snapshotTables } from '../../emulator/store/snapshot.js';
import { storedCount, storedRows } from '../support/stored.js';
import { type TestWorld, consentFor, productionSession, testWorld } from '../world.js';

const DE_CONSENT = consentFor({ version: 'de-2026-03' });

async function enter(t: TestWorld, token: string, body: object = DE_CONSENT) {
  return t.experience('post', '/session/entry', t.env.production_key, token).send(body);
}

const packOf = (t: TestWorld, outcome: string) => t.env.packs.find((pack) => pack.outcome === outcome)!.code;
const withPromotion = (change: Partial<Fixture['promotion']>) => (f: Fixture) => ({ ...f, promotion: { ...f.promotion, ...change } });
const entryCount = (t: TestWorld) => storedCount(t.world.db, 'entries');
/** Every stored row but the interaction log's, which records each call by design. */
const storedWorld = (t: TestWorld) => {
  const { interactions: _log, ...rest } = snapshotTables(t.world.db);
  return rest;
};

describe('production entry: consent (spec §2.4, §2.6, §4.2 422)', () => {
  it('enters with accepted terms, confirmed age and the session terms_version', async () => {
    const t = testWorld();
    const res = await enter(t, await productionSession(t));
    expect(res.status).toBe(200);
    expect(res.body.entry.state).toBe('won');
  });

  it.each([
    ['no consent object', {}],
    ['terms not accepted', { consent: { ...DE_CONSENT.consent, accepted: false } }],
    ['a stale terms_version', { consent: { ...DE_CONSENT.consent, terms_version: '2026-03' } }],
    ['the terms_version in another case (compared exactly)', { consent: { ...DE_CONSENT.consent, terms_version: 'DE-2026-03' } }],
    ['age not confirmed where minimum_age is set', { consent: { accepted: true, terms_version: 'de-2026-03' } }],
  ])('answers 422 consent_required for %s, and stores nothing', async (_name, body) => {
    const t = testWorld();
    const token = await productionSession(t);
    const before = entryCount(t);
    const res = await enter(t, token, body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'consent_required', message: expect.stringContaining('Refresh') });
    expect(entryCount(t)).toBe(before);
  });

  it('needs no age confirmation where the country terms set no minimum age', async () => {
    const t = testWorld();
    const token = await productionSession(t, { collectorEmail: 'marco.rossi@example.test' });
    const res = await enter(t, token, { consent: { accepted: true, terms_version: 'ch-2026-03' } });
    expect(res.status).toBe(200);
  });

  it('refuses consent fields of the wrong type with 400 invalid_request', async () => {
    const t = testWorld();
    const res = await enter(t, await productionSession(t), { consent: { accepted: 'yes', terms_version: 3 } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details).sort()).toEqual(['consent.accepted', 'consent.terms_version']);
  });
});

describe('production entry: forbidden body fields (spec §4.1 rule 1)', () => {
  it.each([['collector_id', 7], ['email', 'anna.weber@example.test'], ['pack_code', 'AM-CHO-260412-XQ3FN'], ['country', 'DE'], ['consumer_id', 'c-1']])(
    'refuses a body carrying %s with 400 invalid_request naming the field, and stores nothing',
    async (field, value) => {
      const t = testWorld();
      const token = await productionSession(t);
      const before = entryCount(t);
      const res = await enter(t, token, { ...DE_CONSENT, [field]: value });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.body.details[field]![0]).toMatch(/spec §4\.1 rule 1/);
      expect(entryCount(t)).toBe(before);
    },
  );

  it('refuses a country smuggled inside the consent object', async () => {
    const t = testWorld();
    const res = await enter(t, await productionSession(t), { consent: { ...DE_CONSENT.consent, country: 'DE' } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details)).toEqual(['consent.country']);
  });
});

describe('production entry: country comes from the journey (spec §4.1 rule 2)', () => {
  it('answers 403 ineligible for a restricted country', async () => {
    const t = testWorld();
    const token = await productionSession(t, { collectorEmail: 'claire.martin@example.test' });
    const session = await t.experience('get', '/session', t.env.production_key, token);
    expect(session.body.eligibility).toEqual({ eligible: false, reason: 'country_restricted', country: 'FR' });
    const res = await enter(t, token, consentFor(session.body.terms));
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ineligible');
  });

  it('answers 403 ineligible when the journey knew no country', async () => {
    const t = testWorld();
    const token = await productionSession(t, { collectorEmail: 'no.country@example.test' });
    const res = await enter(t, token, consentFor({ version: '2026-03' }));
    expect(res.status).toBe(403);
  });

  it('lets any country enter a campaign that is not restricted', async () => {
    const t = testWorld({ fixture: withPromotion({ countries: [] }) });
    const token = await productionSession(t, { collectorEmail: 'sam.taylor@example.test' });
    expect((await enter(t, token, consentFor({ version: '2026-03' }))).status).toBe(200);
  });
});

describe('production entry: one entry per collector and pack (spec §2.5, §4.1 rule 5)', () => {
  it('returns the existing entry to the same collector on retry, even from a new session', async () => {
    const t = testWorld();
    const before = entryCount(t);
    const first = await enter(t, await productionSession(t));
    const again = await enter(t, await productionSession(t));
    expect(again.status).toBe(200);
    expect(again.body.entry).toEqual(first.body.entry);
    expect(entryCount(t)).toBe(before + 1);
  });

  it('answers 409 already_entered to a second collector and discloses nothing of the first result', async () => {
    const t = testWorld();
    const first = await enter(t, await productionSession(t));
    const other = await productionSession(t, { collectorEmail: 'jonas.bauer@example.test' });
    const res = await enter(t, other);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'already_entered', message: 'This pack cannot be entered again.' });
    const read = await t.experience('get', '/session', t.env.production_key, other);
    expect(read.body.entry).toBeNull();
    expect(read.text).not.toContain(first.body.entry.codes[0]);
  });
});

describe('production entry: availability (spec §4.2 409/410 unavailable)', () => {
  it.each([
    ['a campaign that is not live', withPromotion({ status: 'draft' }), 409],
    ['routing paused by the brand', withPromotion({ routing_paused: true }), 409],
    ['a campaign not started yet', withPromotion({ dates: { start: '2027-01-01T00:00:00Z', end: '2027-06-30T23:59:59Z' } }), 409],
    ['an ended campaign', withPromotion({ dates: { start: '2026-01-01T00:00:00Z', end: '2026-11-01T00:00:00Z' } }), 410],
  ])('answers unavailable for %s', async (_name, fixture, status) => {
    const t = testWorld({ fixture });
    const token = await productionSession(t);
    const before = entryCount(t);
    const res = await enter(t, token);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: 'unavailable', message: expect.stringContaining('Rewards page') });
    expect(entryCount(t)).toBe(before);
  });
});

describe('production entry: the draw (spec §1, §3)', () => {
  it.each(['won', 'lost', 'pending', 'failed'])('a pack listed by env with outcome %s enters as %s', async (outcome) => {
    const t = testWorld();
    const res = await enter(t, await productionSession(t, { packCode: packOf(t, outcome) }));
    expect(res.body.entry.state).toBe(outcome);
  });

  it('a won entry shows the prize, the delivered code and the redemption_url', async () => {
    const t = testWorld();
    const res = await enter(t, await productionSession(t, { packCode: packOf(t, 'won') }));
    expect(res.body.entry).toMatchObject({ prize: { name: '5 € voucher' }, codes: [expect.stringMatching(/^AM-/)], redemption_url: 'https://shop.alpenmilch.example/redeem' });
    expect(res.body.delivery.state).toBe('delivered');
  });

  it('takes one unit of stock and the face value from the budget per prize won', async () => {
    const t = testWorld();
    await enter(t, await productionSession(t, { packCode: packOf(t, 'won') }));
    const prize = storedRows<{ position: number; stock: number }>(t.world.db, 'prizes').find((one) => one.position === 0)!;
    const spent = storedRows<{ budget_spent: number }>(t.world.db, 'promotions')[0]!;
    expect(prize.stock).toBe(4999);
    expect(spent.budget_spent).toBe(5);
  });

  it('a drawn prize without stock becomes a non-winning result', async () => {
    const t = testWorld({ fixture: (f) => withPromotion({ prizes: f.promotion.prizes.map((p) => ({ ...p, stock: 0 })) })(f) });
    const res = await enter(t, await productionSession(t, { packCode: packOf(t, 'won') }));
    expect(res.body.entry).toMatchObject({ state: 'lost', prize: null });
  });

  it('a drawn prize beyond the remaining budget becomes a non-winning result', async () => {
    const t = testWorld({ fixture: withPromotion({ budget: 4 }) });
    const res = await enter(t, await productionSession(t, { packCode: packOf(t, 'won') }));
    expect(res.body.entry.state).toBe('lost');
  });

  it.each([
    ['won', 'delivered'],
    ['failed', 'failed'],
  ])('a pending entry that settles as %s shows delivery %s on the virtual clock, not before', async (settles, delivery) => {
    const t = testWorld();
    const pack = t.env.packs.find((p) => p.outcome === 'pending' && p.settles_as === settles)!;
    const token = await productionSession(t, { packCode: pack.code });
    const entered = await enter(t, token);
    expect(entered.body).toMatchObject({ entry: { state: 'pending', codes: [] }, delivery: { state: 'processing' } });
    t.world.clock.advance(29_000);
    expect((await t.experience('get', '/session', t.env.production_key, token)).body.delivery.state).toBe('processing');
    t.world.clock.advance(1_000);
    const read = await t.experience('get', '/session', t.env.production_key, token);
    expect(read.body).toMatchObject({ entry: { state: settles }, delivery: { state: delivery } });
  });

  it('reading the session writes nothing, not even when a delivery has come due: every table but the interaction log is unchanged (spec §3)', async () => {
    const t = testWorld();
    const pack = t.env.packs.find((p) => p.outcome === 'pending' && p.settles_as === 'won')!;
    const token = await productionSession(t, { packCode: pack.code });
    await enter(t, token);
    t.world.clock.advance(30_000);
    const before = storedWorld(t);
    const read = await t.experience('get', '/session', t.env.production_key, token);
    expect(read.body).toMatchObject({ entry: { state: 'won' }, delivery: { state: 'delivered' } });
    expect(storedWorld(t)).toEqual(before);
    expect(storedRows<{ state: string; delivery_state: string }>(t.world.db, 'entries').at(-1)).toMatchObject({ state: 'pending', delivery_state: 'processing' });
  });

  it('a failed delivery stays failed: a retry returns the same entry and never redraws', async () => {
    const t = testWorld();
    const token = await productionSession(t, { packCode: packOf(t, 'failed') });
    const before = entryCount(t);
    const first = await enter(t, token);
    const retry = await enter(t, token);
    expect(first.body).toMatchObject({ entry: { state: 'failed' }, delivery: { state: 'failed' } });
    expect(retry.body.entry).toEqual(first.body.entry);
    expect(entryCount(t)).toBe(before + 1);
  });
});
