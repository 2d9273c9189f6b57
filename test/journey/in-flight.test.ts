/**
 * Journeys already under way obey the lifecycle (issue 13): a request token or an authorization
 * code issued before the brand moves routing (a callback change, a pause, revoking the last
 * production key) is voided, so no `service_code` goes to the old callback and no exchange or
 * entry succeeds. @see spec §1 rules, decisions/010-routing-changes-void-journeys-under-way.md
 */
import { describe, expect, it } from 'vitest';
import { keys } from '../../emulator/use-cases/console/reads.js';
import { setCallbacks } from '../../emulator/use-cases/console/callbacks.js';
import { createKey, revokeKey } from '../../emulator/use-cases/console/keys.js';
import { setRouting } from '../../emulator/use-cases/console/routing.js';
import { s256 } from '../../emulator/domain/pkce.js';
import { storedCount } from '../support/stored.js';
import { type TestWorld, VERIFIER, consentFor, promotionEnv } from '../world.js';
import { CALLBACK, type Browser, approveIntegration, approvedWorld, csrfOf, packCode, serviceRequestOf, signedIn } from './support.js';

const STATE = 'S'.repeat(20) + '_state-0123456789abcdef';
const authorize = (requestToken: string) => ({ request_token: requestToken, state: STATE, code_challenge: s256(VERIFIER), code_challenge_method: 'S256' });

const CHANGES: Array<[string, (t: TestWorld) => void]> = [
  ['the production callback changes', (t) => void setCallbacks(t.world, { production: 'https://new-agency.example/callback' })],
  ['routing is paused', (t) => void setRouting(t.world, true)],
  ['the last production key is revoked', (t) => void revokeKey(t.world, keys(t.world).find((key) => key.environment === 'production')!.id)],
];

async function scanned(t: TestWorld): Promise<{ browser: Browser; requestToken: string }> {
  const browser = await signedIn(t);
  const scan = await browser.get(`/q/${packCode(t)}`).expect(303);
  return { browser, requestToken: serviceRequestOf(scan.headers.location!) };
}

async function continued(browser: Browser, requestToken: string) {
  const page = await browser.get(`/authorize?${new URLSearchParams(authorize(requestToken))}`);
  return { page, answer: await browser.post('/authorize').type('form').send({ csrf: csrfOf(page.text), ...authorize(requestToken) }) };
}

const codesIssued = (t: TestWorld) => storedCount(t.world.db, 'auth_codes');
const sessionsOf = (t: TestWorld) => storedCount(t.world.db, 'sessions');

describe('journeys under way when the brand moves routing (spec §1 rules)', () => {
  it.each(CHANGES)('when %s, a request token issued before sends no service_code to the callback (410)', async (_name, change) => {
    const t = await approvedWorld();
    const { browser, requestToken } = await scanned(t);
    change(t);
    const before = codesIssued(t);
    const { page, answer } = await continued(browser, requestToken);
    expect(page.status).toBe(410);
    expect(page.text).toContain('The brand changed where this promotion runs');
    expect(answer.status).toBe(410);
    expect(answer.headers.location).toBeUndefined();
    expect(codesIssued(t)).toBe(before);
  });

  it.each(CHANGES)('when %s, a code issued before cannot be exchanged (400 invalid_grant), so no entry is made', async (_name, change) => {
    const t = await approvedWorld();
    const { browser, requestToken } = await scanned(t);
    const { answer } = await continued(browser, requestToken);
    expect(answer.status).toBe(303);
    const code = new URL(answer.headers.location!).searchParams.get('service_code')!;
    change(t);
    // A production key made after the change, as the brand would after revoking the last one.
    const key = createKey(t.world, 'production').secret;
    const before = sessionsOf(t);
    const exchange = await t.experience('post', '/sessions', key).send({ authorization_code: code, code_verifier: VERIFIER });
    expect(exchange.status).toBe(400);
    expect(exchange.body).toEqual({ error: 'invalid_grant', message: expect.stringContaining('The brand changed where this promotion runs') });
    expect(sessionsOf(t)).toBe(before);
  });

  it('a pause voids journeys for good: resuming does not bring an old request token back', async () => {
    const t = await approvedWorld();
    const { browser, requestToken } = await scanned(t);
    setRouting(t.world, true);
    setRouting(t.world, false);
    expect((await continued(browser, requestToken)).page.status).toBe(410);
    const fresh = await scanned(t);
    expect((await continued(fresh.browser, fresh.requestToken)).answer.status).toBe(303);
  });

  it('revoking a production key that is not the last one leaves journeys under way alone', async () => {
    const t = await approvedWorld();
    const rotated = createKey(t.world, 'production');
    const { browser, requestToken } = await scanned(t);
    revokeKey(t.world, keys(t.world).find((key) => key.environment === 'production' && key.id !== rotated.id)!.id);
    const { answer } = await continued(browser, requestToken);
    expect(answer.status).toBe(303);
    const code = new URL(answer.headers.location!).searchParams.get('service_code')!;
    const exchange = await t.experience('post', '/sessions', rotated.secret).send({ authorization_code: code, code_verifier: VERIFIER }).expect(201);
    const entry = await t.experience('post', '/session/entry', rotated.secret, exchange.body.session_token).send(consentFor(exchange.body.terms));
    expect(entry.status).toBe(200);
  });

  it("another promotion's change leaves this promotion's journeys alone", async () => {
    const t = await approvedWorld();
    await approveIntegration(t, 'https://codes.agency.example/callback', promotionEnv(t, 'nordkakao-cafe-codes'));
    const { browser, requestToken } = await scanned(t);
    setRouting(t.world, true, promotionEnv(t, 'nordkakao-cafe-codes').id);
    const { answer } = await continued(browser, requestToken);
    expect(answer.status).toBe(303);
    expect(answer.headers.location!.startsWith(`${CALLBACK}?`)).toBe(true);
  });
});
