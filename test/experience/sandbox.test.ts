import { describe, expect, it } from 'vitest';
import { countScans } from '../../emulator/store/scans.js';
import { storedRows } from '../support/stored.js';
import { type TestWorld, testWorld } from '../world.js';
import { promotionCoverage } from '../../emulator/store/coverage.js';

async function sandboxSession(t: TestWorld, scenario: string) {
  const res = await t.experience('post', '/sessions').send({ scenario });
  expect(res.status).toBe(201);
  return res.body.session_token as string;
}

const countRows = (t: TestWorld) => ({
  scans: countScans(t.world.db),
  stock: storedRows<{ stock: number }>(t.world.db, 'prizes').reduce((sum, prize) => sum + prize.stock, 0),
  budget: storedRows<{ budget_spent: number }>(t.world.db, 'promotions')[0]!.budget_spent,
});

describe('sandbox sessions and entries (spec §4.1, §4.2)', () => {
  it('creates a session for each of the six scenarios with the fields of §2.3 and sandbox: true', async () => {
    const t = testWorld();
    for (const scenario of ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered']) {
      const res = await t.experience('post', '/sessions').send({ scenario });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(['campaign', 'delivery', 'eligibility', 'entry', 'expires_at', 'sandbox', 'session_token', 'terms']);
      expect(res.body).toMatchObject({ sandbox: true, entry: null, expires_at: '2026-11-21T10:30:00.000Z' });
      expect(res.body.terms).toMatchObject({ text: expect.any(String), url: expect.any(String), links: expect.any(Array), required: true, version: '2026-03' });
    }
  });

  it.each([
    ['won', 200, { state: 'won', codes: [expect.stringMatching(/^SANDBOX-/)], redemption_url: 'https://shop.alpenmilch.example/redeem' }],
    ['lost', 200, { state: 'lost', prize: null, codes: [] }],
    ['pending', 200, { state: 'pending', codes: [] }],
    ['failed', 200, { state: 'failed', codes: [] }],
  ])('scenario %s answers %i with entry.state %s', async (scenario, status, entry) => {
    const t = testWorld();
    const token = await sandboxSession(t, scenario);
    const res = await t.experience('post', '/session/entry', t.env.sandbox_key, token).send({});
    expect(res.status).toBe(status);
    expect(res.body.entry).toMatchObject(entry);
  });

  it('scenario ineligible answers 403 ineligible', async () => {
    const t = testWorld();
    const res = await t.experience('post', '/session/entry', t.env.sandbox_key, await sandboxSession(t, 'ineligible')).send({});
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'ineligible', message: expect.any(String) });
  });

  it('scenario already_entered answers 409 already_entered and discloses no result', async () => {
    const t = testWorld();
    const res = await t.experience('post', '/session/entry', t.env.sandbox_key, await sandboxSession(t, 'already_entered')).send({});
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'already_entered', message: expect.any(String) });
  });

  it('a pending sandbox entry is delivered on the virtual clock and GET /session shows it', async () => {
    const t = testWorld();
    const token = await sandboxSession(t, 'pending');
    await t.experience('post', '/session/entry', t.env.sandbox_key, token).send({});
    let read = await t.experience('get', '/session', t.env.sandbox_key, token);
    expect(read.body).toMatchObject({ entry: { state: 'pending' }, delivery: { state: 'processing' } });
    t.world.clock.advance(29_000);
    read = await t.experience('get', '/session', t.env.sandbox_key, token);
    expect(read.body.delivery.state).toBe('processing');
    t.world.clock.advance(1_000);
    read = await t.experience('get', '/session', t.env.sandbox_key, token);
    expect(read.body).toMatchObject({ entry: { state: 'won', codes: [expect.any(String)] }, delivery: { state: 'delivered' } });
  });

  it('a retried sandbox entry returns the same entry', async () => {
    const t = testWorld();
    const token = await sandboxSession(t, 'won');
    const first = await t.experience('post', '/session/entry', t.env.sandbox_key, token).send({});
    const second = await t.experience('post', '/session/entry', t.env.sandbox_key, token).send({});
    expect(second.body.entry).toEqual(first.body.entry);
  });

  it('creates no scans, reserves no stock and spends no budget (spec §4.1 rule 4)', async () => {
    const t = testWorld();
    const before = countRows(t);
    for (const scenario of ['won', 'pending', 'failed', 'lost']) {
      await t.experience('post', '/session/entry', t.env.sandbox_key, await sandboxSession(t, scenario)).send({});
    }
    expect(countRows(t)).toEqual(before);
  });

  it('needs no consent: consent and live-campaign guards apply in production only', async () => {
    const t = testWorld({ fixture: (f) => ({ ...f, promotion: { ...f.promotion, status: 'draft' } }) });
    const res = await t.experience('post', '/session/entry', t.env.sandbox_key, await sandboxSession(t, 'won')).send({});
    expect(res.status).toBe(200);
  });

  it('records the checklist coverage: a session and an entry per scenario for the key', async () => {
    const t = testWorld();
    for (const scenario of ['won', 'ineligible']) {
      await t.experience('post', '/session/entry', t.env.sandbox_key, await sandboxSession(t, scenario)).send({});
    }
    await sandboxSession(t, 'lost');
    const rows = promotionCoverage(t.world.db, t.env.promotion_id).map((row) => ({ scenario: row.scenario, s: Number(row.session_created_at !== null), e: Number(row.entry_submitted_at !== null) }));
    expect(rows).toEqual([
      { scenario: 'ineligible', s: 1, e: 1 },
      { scenario: 'lost', s: 1, e: 0 },
      { scenario: 'won', s: 1, e: 1 },
    ]);
  });

  it.each([
    ['an unknown scenario', { scenario: 'jackpot' }, 'scenario'],
    ['no scenario', {}, 'scenario'],
    ['a production body', { authorization_code: 'x', code_verifier: 'y' }, 'authorization_code'],
  ])('refuses %s with 400 invalid_request and details', async (_name, body, field) => {
    const t = testWorld();
    const res = await t.experience('post', '/sessions').send(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.details[field]).toEqual([expect.any(String)]);
  });
});
