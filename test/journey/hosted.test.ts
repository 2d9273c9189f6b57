import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { revokeKey } from '../../emulator/use-cases/console/keys.js';
import { setRouting } from '../../emulator/use-cases/console/routing.js';
import type { Entry } from '../../emulator/store/entries.js';
import { updatePromotionContent } from '../../emulator/store/promotions.js';
import { storedRows } from '../support/stored.js';
import { FROZEN_AT, type TestWorld, consentFor, productionSession, testWorld } from '../world.js';
import { type Browser, approvedWorld, collectorId, csrfOf, packCode, signedIn } from './support.js';

/** Scans, opens the hosted page and sends its form; returns the answer to the form. */
async function enterOnHostedPage(browser: Browser, code: string, answers: Record<string, string> = { accepted: 'yes', age_confirmed: 'yes' }) {
  await browser.get(`/q/${code}`).expect(303);
  const page = await browser.get(`/play/${code}`);
  const version = /name="terms_version" value="([^"]+)"/.exec(page.text)![1]!;
  return browser.post(`/play/${code}`).type('form').send({ csrf: csrfOf(page.text), terms_version: version, ...answers });
}

/** Production entries made during the test, after the fixture's seeded history. */
const entries = (t: TestWorld) =>
  storedRows<Entry>(t.world.db, 'entries')
    .filter((entry) => entry.sandbox === 0 && entry.created_at >= FROZEN_AT)
    .map(({ collector_id, unit_id, state, country, terms_version, sandbox }) => ({ collector_id, unit_id, state, country, terms_version, sandbox }));

describe('hosted fallback page', () => {
  it('shows the campaign and the journey country\'s terms, with consent not preselected', async () => {
    const t = testWorld();
    const browser = await signedIn(t);
    await browser.get(`/q/${packCode(t)}`);
    const page = await browser.get(`/play/${packCode(t)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Scan, sign in, win instantly');
    expect(page.text).toContain('Teilnahme ab 18 Jahren');
    expect(page.text).toContain('I am at least 18 years old.');
    expect(page.text).not.toContain('checked');
    // The pack was scanned: the button enters (not the campaign's "Scan a participating pack to play").
    expect(page.text).toContain('<button type="submit">Enter</button>');
    expect(page.text).not.toContain('Scan a participating pack to play');
  });

  it('refuses an entry without acceptance (422) and enters with it, showing the prize and its code', async () => {
    const t = testWorld();
    const created: number[] = [];
    t.world.events.on('entry.created', ({ entryId }) => created.push(entryId));
    const browser = await signedIn(t);
    const refused = await enterOnHostedPage(browser, packCode(t), { accepted: 'yes' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('minimum age of 18 was not confirmed');
    expect(entries(t)).toEqual([]);

    const entered = await enterOnHostedPage(browser, packCode(t));
    expect(entered.status).toBe(303);
    const result = await browser.get(entered.headers.location!);
    expect(result.text).toContain('You won <strong>5 € voucher</strong>');
    expect(result.text).toMatch(/<code>AM-[A-Z0-9]{10}<\/code>/);
    expect(entries(t)).toEqual([expect.objectContaining({ collector_id: 1, state: 'won', country: 'DE', terms_version: 'de-2026-03' })]);
    expect(created).toHaveLength(1);
    await browser.get(entered.headers.location!);
    expect(created).toHaveLength(1);
  });

  it.each([
    ['routing is paused', (t: TestWorld) => setRouting(t.world, true)],
    ['the last production key is revoked', (t: TestWorld) => revokeKey(t.world, 2)],
  ])('completes an entry itself when %s, and the earlier agency entry stays', async (_name, change) => {
    const t = await approvedWorld();
    const session = await productionSession(t, { packCode: packCode(t, 'pending') });
    await t.experience('post', '/session/entry', t.env.production_key, session).send(consentFor({ version: 'de-2026-03' })).expect(200);
    change(t);
    const browser = await signedIn(t);
    const entered = await enterOnHostedPage(browser, packCode(t));
    expect(entered.status).toBe(303);
    expect(entries(t)).toEqual([expect.objectContaining({ state: 'pending' }), expect.objectContaining({ state: 'won' })]);
    const rewards = (await browser.get('/rewards')).text;
    expect(rewards).toContain('Concert tickets for two');
    expect(rewards).toContain('5 € voucher');
  });

  it('shows an unavailable page, not an entry, when the promotion is not live', async () => {
    const t = testWorld();
    updatePromotionContent(t.world.db, t.env.promotion_id, { ...t.world.fixture.promotion, status: 'draft' });
    const browser = await signedIn(t);
    await browser.get(`/q/${packCode(t)}`);
    const page = await browser.get(`/play/${packCode(t)}`);
    expect(page.status).toBe(409);
    expect(page.text).toContain('not running at the moment');
    expect(page.text).toContain('href="/rewards"');
  });

  it('refuses a collector from a country outside the campaign (403)', async () => {
    const t = testWorld();
    const browser = await signedIn(t, 'sam.taylor@example.test');
    await browser.get(`/q/${packCode(t)}`);
    const page = await browser.get(`/play/${packCode(t)}`);
    expect(page.status).toBe(403);
    expect(page.text).toContain('not available in your country');
  });

  it('gives a second collector 409 for an entered pack and discloses nothing of the first result', async () => {
    const t = testWorld();
    await enterOnHostedPage(await signedIn(t), packCode(t));
    const other = await signedIn(t, 'jonas.bauer@example.test');
    await other.get(`/q/${packCode(t)}`);
    const page = await other.get(`/play/${packCode(t)}`);
    expect(page.status).toBe(409);
    expect(page.text).not.toContain('voucher</strong>');
  });

  it('opens only after this collector scanned the pack', async () => {
    const t = testWorld();
    const browser = await signedIn(t);
    expect((await browser.get(`/play/${packCode(t)}`)).status).toBe(404);
  });

  it('stays closed for a pack whose promotion routes to the agency', async () => {
    const t = await approvedWorld();
    const browser = await signedIn(t);
    await browser.get(`/q/${packCode(t)}`).expect(303);
    const page = await browser.get(`/play/${packCode(t)}`);
    expect(page.status).toBe(409);
    expect(page.text).toContain('runs on the brand&#39;s own website');
  });

  it('refuses the entry form without its CSRF value', async () => {
    const t = testWorld();
    const browser = await signedIn(t);
    await browser.get(`/q/${packCode(t)}`);
    const res = await browser.post(`/play/${packCode(t)}`).type('form').send({ accepted: 'yes', age_confirmed: 'yes', terms_version: 'de-2026-03' });
    expect(res.status).toBe(403);
    expect(entries(t)).toEqual([]);
  });

  it('gives a signed-in browser that lost its form id one id, which both forms of the page carry, so the entry it sends is taken', async () => {
    const t = testWorld();
    const cookie = (res: request.Response, name: string) => [res.headers['set-cookie'] ?? []].flat().filter((line) => line.startsWith(`${name}=`)).map((line) => line.split(';')[0]!);
    const form = await request(t.app).get('/sign-in');
    const signIn = await request(t.app).post('/sign-in').set('Cookie', cookie(form, 'promo_csrf')).type('form').send({ csrf: csrfOf(form.text), collector_id: collectorId(t, 'anna.weber@example.test'), next: '/promotions' });
    // The browser keeps its sign-in, not its form id (a cookie cleared on its own).
    const [session] = cookie(signIn, 'promo_session');
    await request(t.app).get(`/q/${packCode(t)}`).set('Cookie', session!).expect(303);
    const page = await request(t.app).get(`/play/${packCode(t)}`).set('Cookie', session!);
    const given = cookie(page, 'promo_csrf');
    expect(given).toHaveLength(1);
    const fields = [...page.text.matchAll(/name="csrf" value="([^"]+)"/g)].map((match) => match[1]!);
    expect(fields).toHaveLength(2);
    expect(new Set(fields).size).toBe(1);
    const version = /name="terms_version" value="([^"]+)"/.exec(page.text)![1]!;
    const entered = await request(t.app).post(`/play/${packCode(t)}`).set('Cookie', `${session}; ${given[0]}`).type('form').send({ csrf: fields[0], terms_version: version, accepted: 'yes', age_confirmed: 'yes' });
    expect(entered.status).toBe(303);
    expect(entries(t)).toHaveLength(1);
  });

  it('delivers a pending prize on the clock: Rewards shows the code once delivered', async () => {
    const t = testWorld();
    const browser = await signedIn(t);
    await enterOnHostedPage(browser, packCode(t, 'pending'));
    expect((await browser.get('/rewards')).text).toContain('Delivery processing');
    t.world.clock.advance(31_000);
    const rewards = await browser.get('/rewards');
    expect(rewards.text).toContain('Delivered');
    expect(rewards.text).toMatch(/<code>AM-[A-Z0-9]{10}<\/code>/);
  });
});
