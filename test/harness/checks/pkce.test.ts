/**
 * The state and PKCE format checks on built facts: nothing observed, a violation, a clean run.
 * The four rejection checks are tested on facts in test/harness/rejections.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { ConfigSchema } from '../../../harness/config.js';
import type { ObservedCall, VerifierVerdict } from '../../../harness/emulator-client/client.js';
import { type JourneyFacts, RunFacts, sha256 } from '../../../harness/run/facts.js';
import { PKCE_CHECKS } from '../../../harness/checks/pkce.js';

const AGENCY = 'http://127.0.0.1:3000';
const check = (id: string) => PKCE_CHECKS.find((candidate) => candidate.id === id)!;
const STATE = 's'.repeat(32);
const CHALLENGE = 'c'.repeat(43);
const VERIFIER: VerifierVerdict = { length: 64, unreserved: true, s256: CHALLENGE };

/** A run of journeys, each authorized with `authorize` and, when `verifier` is given, exchanged presenting it. */
function run(journeys: Array<{ authorize?: JourneyFacts['authorize']; verifier?: VerifierVerdict; suppliedState?: string }>): RunFacts {
  const seen = new RunFacts(ConfigSchema.parse({}), { agency: AGENCY, emulator: 'http://127.0.0.1:4010', callback: `${AGENCY}/callback` }, '/tmp');
  journeys.forEach(({ authorize, verifier, suppliedState }, index) => {
    const code = `code-${index}`;
    seen.journeys.push({
      scenario: 'production-won', journey: `j${index}`, pack: { code: `P${index}`, outcome: 'won' }, country: 'DE', email: 'h@example.test', consent: [], submissions: [],
      ...(authorize ? { authorize } : {}), ...(suppliedState ? { suppliedState } : {}), issuedCallback: `${AGENCY}/callback?service_code=${code}&state=x`,
    });
    if (verifier) seen.calls.push({ seq: index + 1, at: index + 1, method: 'POST', path: '/sessions', environment: 'production', key_id: 2, session_id: index, pack: `P${index}`, scenario: null, status: 201, body: null, code_sha256: sha256(code), verifier } as ObservedCall);
  });
  return seen;
}
const authorize = (fields: Partial<NonNullable<JourneyFacts['authorize']>> = {}) => ({ url: `${AGENCY}/authorize`, state: STATE, challenge: CHALLENGE, method: 'S256', ...fields });

describe('state.format', () => {
  test('no state sent: no verdict; 32 to 128 base64url characters pass; 31 characters or padding fail', () => {
    expect(check('state.format').evaluate(run([{}]))).toBeUndefined();
    expect(check('state.format').evaluate(run([{ authorize: authorize() }, { authorize: authorize({ state: 'a'.repeat(128) }) }]))!.status).toBe('pass');
    expect(check('state.format').evaluate(run([{ authorize: authorize({ state: 'a'.repeat(31) }) }]))).toMatchObject({ status: 'fail', reason: expect.stringContaining('31 characters, not 32 to 128 base64url') });
    expect(check('state.format').evaluate(run([{ authorize: authorize({ state: `${'a'.repeat(40)}==` }) }]))!.status).toBe('fail');
  });
});

describe('state.browser_supplied_ignored', () => {
  test('nothing supplied: no verdict; the supplied state sent on: fail; a fresh one: pass; no authorize after it: inconclusive', () => {
    expect(check('state.browser_supplied_ignored').evaluate(run([{ authorize: authorize() }]))).toBeUndefined();
    expect(check('state.browser_supplied_ignored').evaluate(run([{ authorize: authorize(), suppliedState: STATE }]))!.status).toBe('fail');
    expect(check('state.browser_supplied_ignored').evaluate(run([{ authorize: authorize(), suppliedState: 'x'.repeat(32) }]))!.status).toBe('pass');
    expect(check('state.browser_supplied_ignored').evaluate(run([{ suppliedState: 'x'.repeat(32) }]))!.status).toBe('inconclusive');
  });
});

describe('pkce.verifier_format', () => {
  test('no verifier presented: no verdict; 43 to 128 unreserved pass; 42 characters or a reserved one fail', () => {
    expect(check('pkce.verifier_format').evaluate(run([{ authorize: authorize() }]))).toBeUndefined();
    expect(check('pkce.verifier_format').evaluate(run([{ authorize: authorize(), verifier: VERIFIER }]))!.status).toBe('pass');
    expect(check('pkce.verifier_format').evaluate(run([{ authorize: authorize(), verifier: { ...VERIFIER, length: 42 } }]))).toMatchObject({ status: 'fail', reason: expect.stringContaining('42 characters') });
    expect(check('pkce.verifier_format').evaluate(run([{ authorize: authorize(), verifier: { ...VERIFIER, unreserved: false } }]))).toMatchObject({ status: 'fail', reason: expect.stringContaining('not all unreserved') });
  });
});

describe('pkce.s256', () => {
  test('no authorize: no verdict; S256 without an exchange to compare: inconclusive; matching the verifier: pass', () => {
    expect(check('pkce.s256').evaluate(run([{}]))).toBeUndefined();
    expect(check('pkce.s256').evaluate(run([{ authorize: authorize() }]))!.status).toBe('inconclusive');
    expect(check('pkce.s256').evaluate(run([{ authorize: authorize(), verifier: VERIFIER }]))).toMatchObject({ status: 'pass', reason: expect.stringContaining('1 compared with the verifier') });
  });
  test('plain, a padded challenge, or one that is not the S256 of the verifier: fail', () => {
    expect(check('pkce.s256').evaluate(run([{ authorize: authorize({ method: 'plain' }), verifier: VERIFIER }]))).toMatchObject({ status: 'fail', reason: expect.stringContaining('code_challenge_method=plain') });
    expect(check('pkce.s256').evaluate(run([{ authorize: authorize({ challenge: `${'c'.repeat(42)}=` }), verifier: VERIFIER }]))).toMatchObject({ status: 'fail', reason: expect.stringContaining('outside base64url') });
    expect(check('pkce.s256').evaluate(run([{ authorize: authorize(), verifier: { ...VERIFIER, s256: 'd'.repeat(43) } }]))).toMatchObject({ status: 'fail', reason: expect.stringContaining('not BASE64URL(SHA256(verifier))') });
  });
});

describe('pkce.fresh_per_journey', () => {
  test('fewer than two journeys: no verdict; two with their own values pass; a repeated verifier or state fails', () => {
    expect(check('pkce.fresh_per_journey').evaluate(run([{ authorize: authorize() }]))).toBeUndefined();
    const own = (index: number) => ({ authorize: authorize({ state: `${index}`.repeat(32), challenge: `${index}`.repeat(43) }), verifier: { ...VERIFIER, s256: `${index}`.repeat(43) } });
    expect(check('pkce.fresh_per_journey').evaluate(run([own(1), own(2)]))!.status).toBe('pass');
    expect(check('pkce.fresh_per_journey').evaluate(run([own(1), { ...own(2), verifier: own(1).verifier, authorize: { ...own(2).authorize, challenge: own(1).authorize.challenge } }]))).toMatchObject({ status: 'fail', reason: expect.stringContaining('share code_verifiers') });
    expect(check('pkce.fresh_per_journey').evaluate(run([own(1), { ...own(2), authorize: { ...own(2).authorize, state: own(1).authorize.state } }]))).toMatchObject({ status: 'fail', reason: '1 state value(s) repeated across journeys' });
  });
});
