import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { setRouting } from '../../emulator/use-cases/console/routing.js';
import { findCollectorByEmail } from '../../emulator/store/collectors.js';
import type { Entry } from '../../emulator/store/entries.js';
import type { Prize } from '../../emulator/store/promotions.js';
import { harnessCollectorEmail } from '../../emulator/wire-contract.js';
import { scansAfter } from '../../emulator/store/scans.js';
import { shownEntry } from '../../emulator/use-cases/entry-shown.js';
import { consentFor, productionSession, promotionEnv, testWorld } from '../world.js';
import { CALLBACK, approveIntegration, approvedWorld, csrfOf, packCode, signedIn } from './support.js';

describe('collector sign-in', () => {
  it('lists the fixture\'s collectors and sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const t = testWorld();
    const browser = request.agent(t.app);
    const form = await browser.get('/sign-in?next=/rewards');
    expect(form.text).toContain('Sign in as anna.weber@example.test (DE, Berlin)');
    const res = await browser.post('/sign-in').type('form').send({ csrf: csrfOf(form.text), collector_id: 1, next: '/rewards' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/rewards');
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((line) => line.startsWith('promo_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect((await browser.get('/rewards')).text).toContain('Signed in as anna.weber@example.test');
  });

  it('creates a collector with email and country; the country is the journey\'s country', async () => {
    const t = testWorld();
    const browser = request.agent(t.app);
    const form = await browser.get('/sign-in');
    await browser.post('/sign-in').type('form').send({ csrf: csrfOf(form.text), email: 'new.person@example.test', country: 'AT', city: 'Graz', next: `/q/${packCode(t)}` }).expect(303);
    await browser.get(`/q/${packCode(t)}`).expect(303);
    const collector = findCollectorByEmail(t.world.db, 'new.person@example.test')!;
    const scan = scansAfter(t.world.db, 0).filter((one) => one.collector_id === collector.id).map(({ country, city }) => ({ country, city }))[0];
    expect(scan).toEqual({ country: 'AT', city: 'Graz' });
  });

  it("does not offer the harness's own accounts to a person; typed in with their country, they sign in as before", async () => {
    const t = testWorld();
    const harness = harnessCollectorEmail('DE');
    const first = request.agent(t.app);
    const form = await first.get('/sign-in');
    await first.post('/sign-in').type('form').send({ csrf: csrfOf(form.text), email: harness, country: 'DE', next: '/rewards' }).expect(303);
    const made = findCollectorByEmail(t.world.db, harness)!;
    const person = request.agent(t.app);
    const page = await person.get('/sign-in');
    expect(page.text).toContain('Sign in as anna.weber@example.test (DE, Berlin)');
    expect(page.text).not.toContain(harness);
    // The next run, in a fresh browser, types it again: the same account, no new one.
    const again = await person.post('/sign-in').type('form').send({ csrf: csrfOf(page.text), email: harness.toUpperCase(), country: 'DE', next: '/rewards' }).expect(303);
    expect(again.headers.location).toBe('/rewards');
    expect((await person.get('/rewards')).text).toContain(`Signed in as ${harness}`);
    expect(findCollectorByEmail(t.world.db, harness)!.id).toBe(made.id);
    const elsewhere = await request.agent(t.app).get('/sign-in');
    const refused = await request.agent(t.app).post('/sign-in').set('Cookie', elsewhere.headers['set-cookie'] as unknown as string[]).type('form')
      .send({ csrf: csrfOf(elsewhere.text), email: harness, country: 'AT', next: '/rewards' }).expect(400);
    expect(refused.text).toContain('An account with this email exists, in DE');
    expect(refused.text).not.toContain(`Sign in as ${harness}`);
  });

  it.each([
    ['a malformed email', { email: 'not-an-email', country: 'DE' }, 'Enter an email address'],
    ['an email that exists', { email: 'ANNA.WEBER@example.test', country: 'DE' }, 'An account with this email exists'],
    ['no country', { email: 'x@example.test', country: '' }, 'Choose the country'],
    ['an email given twice', { email: ['x@example.test', 'y@example.test'], country: 'DE' }, 'Enter an email address'],
  ])('refuses %s with the reason next to the field (400)', async (_name, fields, reason) => {
    const t = testWorld();
    const browser = request.agent(t.app);
    const form = await browser.get('/sign-in');
    const res = await browser.post('/sign-in').type('form').send({ csrf: csrfOf(form.text), next: '/rewards', ...fields });
    expect(res.status).toBe(400);
    expect(res.text).toContain(reason);
    expect(res.text).toContain('aria-invalid="true"');
  });

  it('ends the sign-in on sign-out and after 24 hours', async () => {
    const t = testWorld();
    const browser = await signedIn(t);
    const rewards = await browser.get('/rewards');
    expect(rewards.status).toBe(200);
    await browser.post('/sign-out').type('form').send({ csrf: csrfOf(rewards.text) }).expect(303);
    expect((await browser.get('/rewards')).status).toBe(303);
    const later = await signedIn(t);
    t.world.clock.advance(24 * 3_600_000);
    expect((await later.get('/rewards')).headers.location).toBe('/sign-in?next=%2Frewards');
  });

  it('refuses a sign-in form without its CSRF value', async () => {
    const t = testWorld();
    const res = await request(t.app).post('/sign-in').type('form').send({ collector_id: 1 });
    expect(res.status).toBe(403);
    expect(res.headers['set-cookie']?.toString() ?? '').not.toContain('promo_session');
  });

  it('sends the browser back only to the journey\'s own pages', async () => {
    const t = testWorld();
    const browser = request.agent(t.app);
    const form = await browser.get('/sign-in');
    const res = await browser.post('/sign-in').type('form').send({ csrf: csrfOf(form.text), collector_id: 1, next: '//evil.example/x' });
    expect(res.headers.location).toBe('/promotions');
  });

  it('escapes collector data on every page', async () => {
    const t = testWorld();
    const browser = request.agent(t.app);
    const form = await browser.get('/sign-in');
    await browser.post('/sign-in').type('form').send({ csrf: csrfOf(form.text), email: '"><img/src=x/onerror=alert(1)>@example.test', country: 'DE', next: '/rewards' });
    const page = await browser.get('/sign-in');
    expect(page.text).not.toContain('<img/src=x');
    expect(page.text).toContain('&quot;&gt;&lt;img/src=x/onerror=alert(1)&gt;@example.test');
  });
});

describe('Rewards and Promotions', () => {
  it('lists won prizes with codes in the Rewards wallet, agency entries included', async () => {
    const t = testWorld();
    const session = await productionSession(t, { packCode: packCode(t) });
    const terms = (await t.experience('get', '/session', t.env.production_key, session)).body.terms;
    await t.experience('post', '/session/entry', t.env.production_key, session).send(consentFor(terms)).expect(200);
    const browser = await signedIn(t);
    const rewards = await browser.get('/rewards');
    expect(rewards.status).toBe(200);
    expect(rewards.text).toContain('Spring Instant Win');
    expect(rewards.text).toContain('5 € voucher');
    expect(rewards.text).toContain('href="https://shop.alpenmilch.example/redeem"');
  });

  it('asks for sign-in before showing Rewards', async () => {
    const t = testWorld();
    const res = await request(t.app).get('/rewards');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/sign-in?next=%2Frewards');
  });

  it('links the Promotions list to the callback URL only while the experience is approved and live', async () => {
    const fresh = testWorld();
    expect((await request(fresh.app).get('/promotions')).text).not.toContain(CALLBACK);
    const t = await approvedWorld();
    expect((await request(t.app).get('/promotions')).text).toContain(`href="${CALLBACK}"`);
    setRouting(t.world, true);
    expect((await request(t.app).get('/promotions')).text).not.toContain(CALLBACK);
  });

  it('lists every live promotion, links each approved agency experience, shows upcoming ones and leaves ended ones out', async () => {
    const t = await approvedWorld();
    await approveIntegration(t, 'https://codes.agency.example/callback', promotionEnv(t, 'nordkakao-cafe-codes'));
    const page = (await request(t.app).get('/promotions')).text;
    expect(page).toContain(`href="${CALLBACK}"`);
    expect(page).toContain('href="https://codes.agency.example/callback"');
    expect(page).toContain('Krispa Behind the Crunch');
    expect(page).toMatch(/Summer White Instant Win<\/h2>[\s\S]*?Starts on 2027-07-01/);
    expect(page).not.toContain('Krispa Winter Crunch');
  });

  it('serves every page with lang, viewport, landmarks, no-store and a strict Content-Security-Policy', async () => {
    const t = testWorld();
    for (const path of ['/sign-in', '/promotions', '/q/UNKNOWN', '/']) {
      const res = await request(t.app).get(path);
      expect(res.text).toContain('<html lang="en">');
      expect(res.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(res.text).toContain('<main id="main"');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.text).not.toMatch(/(src|href)="https?:\/\/(?!127\.0\.0\.1)/);
    }
  });
});

describe('what an entry shows (use-cases/entry-shown.ts), on the pages as in the API', () => {
  const won = { state: 'won', prize_name: 'Mug', codes: '["AM-ABC"]', redemption_url: 'https://brand.example/redeem', created_at: Date.UTC(2026, 2, 1) } as Entry;
  const prize = { name: 'Mug (catalog)' } as Prize;

  it('shows a won prize\'s codes and link only once it is delivered', () => {
    expect(shownEntry({ ...won, delivery_state: 'processing' }, prize)).toEqual({ state: 'won', prizeName: 'Mug', codes: [], redemptionUrl: null, createdAt: won.created_at });
    expect(shownEntry({ ...won, delivery_state: 'delivered' }, prize)).toEqual({ state: 'won', prizeName: 'Mug', codes: ['AM-ABC'], redemptionUrl: 'https://brand.example/redeem', createdAt: won.created_at });
  });
});
