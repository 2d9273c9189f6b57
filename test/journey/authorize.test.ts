import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { s256 } from '../../emulator/domain/pkce.js';
import { VERIFIER, consentFor } from '../world.js';
import { CALLBACK, type Browser, approvedWorld, collectorId, csrfOf, packCode, serviceRequestOf, signedIn } from './support.js';

const STATE = 'S'.repeat(20) + '_state-0123456789abcdef';
const CHALLENGE = s256(VERIFIER);

function authorizeQuery(requestToken: string, overrides: Record<string, string | undefined> = {}): string {
  const params = { request_token: requestToken, state: STATE, code_challenge: CHALLENGE, code_challenge_method: 'S256', ...overrides };
  return new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
}

/** An approved world, a signed-in collector, and the request token their scan carried to the callback. */
async function routedScan(email = 'anna.weber@example.test') {
  const t = await approvedWorld();
  const browser = await signedIn(t, email);
  const scan = await browser.get(`/q/${packCode(t)}`);
  return { t, browser, requestToken: serviceRequestOf(scan.headers.location!) };
}

async function continueOn(browser: Browser, requestToken: string, overrides: Record<string, string> = {}) {
  const page = await browser.get(`/authorize?${authorizeQuery(requestToken)}`);
  return browser.post('/authorize').type('form').send({
    csrf: csrfOf(page.text), request_token: requestToken, state: STATE, code_challenge: CHALLENGE, code_challenge_method: 'S256', ...overrides,
  });
}

describe('authorize page', () => {
  it('shows the campaign and a Continue form to the signed-in collector, uncached', async () => {
    const { browser, requestToken } = await routedScan();
    const res = await browser.get(`/authorize?${authorizeQuery(requestToken)}`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.text).toContain('Spring Instant Win');
    expect(res.text).toContain('https://agency.example');
    expect(res.text).toMatch(/<form method="post" action="\/authorize">/);
    expect(res.text).toContain('<button type="submit">Continue</button>');
  });

  it('redirects Continue to the same callback with service_code and state, and the code exchanges with the verifier', async () => {
    const { t, browser, requestToken } = await routedScan();
    const res = await continueOn(browser, requestToken);
    expect(res.status).toBe(303);
    expect(res.headers['cache-control']).toBe('no-store');
    const location = new URL(res.headers.location!);
    expect(location.origin + location.pathname).toBe(CALLBACK);
    expect(location.searchParams.get('state')).toBe(STATE);
    const code = location.searchParams.get('service_code')!;
    const exchange = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: VERIFIER });
    expect(exchange.status).toBe(201);
    expect(exchange.body.eligibility).toMatchObject({ eligible: true, country: 'DE' });
    const entry = await t.experience('post', '/session/entry', t.env.production_key, exchange.body.session_token).send(consentFor(exchange.body.terms));
    expect(entry.body.entry.state).toBe('won');
    expect(t.logLines.join('')).not.toContain(code);
    expect(t.logLines.join('')).not.toContain(requestToken);
    expect(t.logLines.join('')).not.toContain(STATE);
  });

  it.each([
    ['a short state', { state: 'too-short' }, 'state must be 32 to 128'],
    ['a state with padding', { state: `${'a'.repeat(40)}==` }, 'state must be 32 to 128'],
    ['a malformed code_challenge', { code_challenge: 'x'.repeat(42) }, 'code_challenge must be'],
    ['the plain method', { code_challenge_method: 'plain' }, 'code_challenge_method must be S256'],
    ['no request_token', { request_token: undefined }, 'request_token is missing'],
  ])('answers %s with a 400 error page, never a redirect', async (_name, overrides, detail) => {
    const { browser, requestToken } = await routedScan();
    const res = await browser.get(`/authorize?${authorizeQuery(requestToken, overrides)}`);
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain(detail);
  });

  it('answers a parameter given twice as one of the wrong shape, with a 400 page', async () => {
    const { browser, requestToken } = await routedScan();
    const res = await browser.get(`/authorize?${authorizeQuery(requestToken)}&state=${STATE}`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('state must be 32 to 128 base64url characters');
  });

  it.each([
    [31, 400],
    [129, 400],
    [32, 200],
    [128, 200],
  ])('a state of %i base64url characters is answered %i on the page (spec §8: 32 to 128)', async (length, status) => {
    const { browser, requestToken } = await routedScan();
    const res = await browser.get(`/authorize?${authorizeQuery(requestToken, { state: 'aZ0_-'.repeat(26).slice(0, length) })}`);
    expect(res.status).toBe(status);
    if (status === 400) expect(res.text).toContain('state must be 32 to 128 base64url characters');
    else expect(res.text).toContain('<button type="submit">Continue</button>');
  });

  it.each([32, 128])('Continue with a state of %i characters redirects with that state', async (length) => {
    const { browser, requestToken } = await routedScan();
    const state = 'aZ0_-'.repeat(26).slice(0, length);
    const page = await browser.get(`/authorize?${authorizeQuery(requestToken, { state })}`);
    const res = await browser.post('/authorize').type('form').send({ csrf: csrfOf(page.text), request_token: requestToken, state, code_challenge: CHALLENGE, code_challenge_method: 'S256' });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.location!).searchParams.get('state')).toBe(state);
  });

  it('refuses an unknown request token', async () => {
    const { browser } = await routedScan();
    const res = await browser.get(`/authorize?${authorizeQuery('rt_unknown')}`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('not known to the service');
  });

  it('refuses a request token after its 5 minutes, on the page and on Continue', async () => {
    const { t, browser, requestToken } = await routedScan();
    const page = await browser.get(`/authorize?${authorizeQuery(requestToken)}`);
    t.world.clock.advance(5 * 60_000);
    expect((await browser.get(`/authorize?${authorizeQuery(requestToken)}`)).status).toBe(410);
    const res = await browser.post('/authorize').type('form').send({ csrf: csrfOf(page.text), request_token: requestToken, state: STATE, code_challenge: CHALLENGE, code_challenge_method: 'S256' });
    expect(res.status).toBe(410);
    expect(res.text).toContain('expired');
    expect(res.headers.location).toBeUndefined();
  });

  it('uses a request token once: a second Continue gets an error page', async () => {
    const { browser, requestToken } = await routedScan();
    expect((await continueOn(browser, requestToken)).status).toBe(303);
    const again = await continueOn(browser, requestToken);
    expect(again.status).toBe(410);
    expect(again.text).toContain('already used');
  });

  it('gives a browser without a form id, on its error page, the one the page\'s sign-out form needs', async () => {
    const { t } = await routedScan();
    // A browser holding only its session: its form id is gone (cleared, or another port's page overwrote it).
    const form = await request(t.app).get('/sign-in');
    const signIn = await request(t.app).post('/sign-in').set('Cookie', form.headers['set-cookie']!).type('form')
      .send({ csrf: csrfOf(form.text), collector_id: collectorId(t, 'anna.weber@example.test'), next: '/promotions' });
    const session = [signIn.headers['set-cookie'] ?? []].flat().map((cookie) => cookie.split(';')[0]!);
    expect(session.some((cookie) => cookie.startsWith('promo_csrf='))).toBe(false);
    const refused = await request(t.app).get(`/authorize?${authorizeQuery('rt_unknown')}`).set('Cookie', session.join('; '));
    expect(refused.status).toBe(400);
    const given = [refused.headers['set-cookie'] ?? []].flat().filter((cookie) => cookie.startsWith('promo_csrf='));
    expect(given).toEqual([expect.stringMatching(/^promo_csrf=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/)]);
    const signOut = await request(t.app).post('/sign-out').set('Cookie', [...session, given[0]!.split(';')[0]!].join('; ')).type('form').send({ csrf: csrfOf(refused.text) });
    expect(signOut.status).toBe(303);
  });

  it('refuses a request token issued to another collector', async () => {
    const { t, requestToken } = await routedScan();
    const other = await signedIn(t, 'jonas.bauer@example.test');
    const res = await other.get(`/authorize?${authorizeQuery(requestToken)}`);
    expect(res.status).toBe(403);
  });

  it('refuses a browser that is not signed in', async () => {
    const { t, requestToken } = await routedScan();
    const res = await request(t.app).get(`/authorize?${authorizeQuery(requestToken)}`);
    expect(res.status).toBe(401);
    expect(res.headers.location).toBeUndefined();
  });

  it('refuses Continue without the form\'s CSRF value and leaves the request token unused', async () => {
    const { browser, requestToken } = await routedScan();
    const forged = await browser.post('/authorize').type('form').send({ request_token: requestToken, state: STATE, code_challenge: CHALLENGE, code_challenge_method: 'S256' });
    expect(forged.status).toBe(403);
    expect(forged.headers.location).toBeUndefined();
    expect((await continueOn(browser, requestToken)).status).toBe(303);
  });
});
