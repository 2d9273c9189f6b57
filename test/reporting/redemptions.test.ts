import { expect, test } from 'vitest';
import { storedRows } from '../support/stored.js';
import { productionSession, consentFor } from '../world.js';
import { BRAND, OTHER_BRAND, reportingWorld } from './reporting.js';

const REDEMPTIONS = `/brands/${BRAND}/redemptions`;

test.each([
  ['status=used', { status: ['must be claimed or redeemed'] }],
  ['limit=0', { limit: ['must be at least 1'] }],
  ['since=soon', { since: [expect.stringContaining('ISO 8601')] }],
])('an invalid redemptions query (%s) is 422 with details', async (query, details) => {
  const t = reportingWorld();
  expect((await t.get(`${REDEMPTIONS}?${query}`)).body).toEqual({ error: 'validation_failed', details });
});

test('redemptions are wrapped in data with the documented CRM fields, newest claim first', async () => {
  const t = reportingWorld();
  const { data } = (await t.get(`${REDEMPTIONS}?limit=1000`).expect(200)).body as { data: Array<Record<string, unknown>> };
  expect(data.length).toBeGreaterThan(10);
  expect(data[0]).toEqual({
    entry_id: expect.any(Number),
    status: expect.stringMatching(/^(claimed|redeemed)$/),
    collector: { id: expect.any(Number) },
    activation: { id: expect.any(Number), name: 'Spring Instant Win', activation_type: 'instant_win' },
    reward: { id: expect.any(Number), name: expect.any(String), reward_type: expect.any(String), tier: expect.any(String), face_value: expect.any(Number) },
    code: expect.stringMatching(/^AM-[A-Z2-9]{10}$/),
    country: expect.stringMatching(/^(DE|AT|CH)$/),
    claimed_at: expect.any(String),
    redeemed_at: data[0]!.status === 'redeemed' ? expect.any(String) : null,
    channel: data[0]!.status === 'redeemed' ? expect.stringMatching(/^(online|in_store)$/) : null,
  });
  const claimed = data.map((item) => Date.parse(item.claimed_at as string));
  expect([...claimed].sort((a, b) => b - a)).toEqual(claimed);
  expect(new Set(data.map((item) => item.status))).toEqual(new Set(['claimed', 'redeemed']));
});

test('status filters claimed and redeemed rewards; failed deliveries are never claimed', async () => {
  const t = reportingWorld();
  const redeemed = (await t.get(`${REDEMPTIONS}?status=redeemed&limit=1000`)).body.data;
  const claimed = (await t.get(`${REDEMPTIONS}?status=claimed&limit=1000`)).body.data;
  expect(redeemed.every((item: { status: string; redeemed_at: string }) => item.status === 'redeemed' && item.redeemed_at)).toBe(true);
  expect(claimed.every((item: { status: string }) => item.status === 'claimed')).toBe(true);
  const failed = storedRows<{ id: number; state: string }>(t.world.db, 'entries').filter((entry) => entry.state === 'failed');
  const listed = new Set([...redeemed, ...claimed].map((item: { entry_id: number }) => item.entry_id));
  expect(failed.length).toBeGreaterThan(0);
  for (const { id } of failed) expect(listed.has(id)).toBe(false);
});

test("a brand without promotions has no redemptions, and never sees another brand's", async () => {
  const t = reportingWorld({ fixture: (f) => ({ ...f, promotions: f.promotions.filter((promotion) => promotion.brand !== OTHER_BRAND) }) });
  expect((await t.get(`/brands/${OTHER_BRAND}/redemptions`).expect(200)).body).toEqual({ data: [] });
});

test('a prize won in a journey is claimed at once, with its delivered code', async () => {
  const t = reportingWorld();
  const session = await productionSession(t);
  const read = await t.experience('get', '/session', t.env.production_key, session);
  const entry = await t.experience('post', '/session/entry', t.env.production_key, session).send(consentFor(read.body.terms)).expect(200);
  const [newest] = (await t.get(REDEMPTIONS).expect(200)).body.data;
  expect(newest).toMatchObject({ entry_id: entry.body.entry.id, status: 'claimed', code: entry.body.entry.codes[0], redeemed_at: null });
});

test('no email address or other personal data appears in redemptions', async () => {
  const t = reportingWorld();
  expect(JSON.stringify((await t.get(`${REDEMPTIONS}?limit=1000`)).body)).not.toMatch(/@|email|example\.test/);
});
