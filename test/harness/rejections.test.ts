/**
 * A rejection passes only on positive evidence: no exchange of the code from any probe however
 * late, and a successful exchange seen in the same run. What the page shows is evidence for the
 * brand, not the verdict: an agency may word its refusal as it likes.
 */
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { PKCE_CHECKS } from '../../harness/checks/pkce.js';
import { ConfigSchema } from '../../harness/config.js';
import type { ObservedCall } from '../../harness/emulator/client.js';
import { RunFacts } from '../../harness/run/facts.js';
import { tamperings } from '../../harness/run/step-support.js';

const CODE = 'sc_code-of-the-journey';
const codeSha = createHash('sha256').update(CODE).digest('hex');
const check = PKCE_CHECKS.find((candidate) => candidate.id === 'state.tampered_rejected')!;

/** Two tampered-state probes at t=1000 and t=1500, then the callback opened as issued at t=2000. */
function run(options: { exchanges: Array<{ at: number; sessionCreated: boolean }> }): RunFacts {
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, '/tmp');
  facts.journeys.push({
    scenario: 'state-tampered', journey: 'main', pack: { code: 'P1', outcome: 'lost' }, country: 'DE', email: 'h@example.test', consent: [], submissions: [],
    issuedCallback: `http://127.0.0.1:3000/callback?service_code=${CODE}&state=s`, completion: { at: 2000, status: 303, location: '/result', landed: 'http://127.0.0.1:3000/result' },
  });
  for (const [at, variant] of [[1000, 'last character changed'], [1500, 'truncated']] as const) {
    facts.probes.push({
      kind: 'tampered_state', variant, scenario: 'state-tampered', journey: 'main', at, codeSha, url: 'http://127.0.0.1:3000/callback?service_code=…&state=…',
      page: { status: 200, url: 'http://127.0.0.1:3000/callback', shows: [], title: 'Ein Fehler' },
    });
  }
  facts.calls.push(...options.exchanges.map((exchange, index): ObservedCall => ({
    seq: index + 1, at: exchange.at, method: 'POST', path: '/sessions', environment: 'production', key_id: 2, session_id: exchange.sessionCreated ? 7 : null, pack: 'P1', scenario: null,
    status: exchange.sessionCreated ? 201 : 400, body: {}, code_sha256: codeSha, answer: exchange.sessionCreated ? { session_created: true } : { error: 'invalid_grant' },
  })));
  return facts;
}

test('the code exchanged once only, by the callback opened as issued: passes, with that exchange as the control, whatever the page says', () => {
  const verdict = check.evaluate(run({ exchanges: [{ at: 2100, sessionCreated: true }] }))!;
  expect([verdict.status, verdict.observed]).toEqual(['pass', 2]);
  expect(verdict.evidence.at(-1)!.label).toMatch(/^control: state-tampered's callback opened as issued was exchanged \(HTTP 201\)/);
});

test('an exchange after a probe fails, naming the probe it followed, even one made in the background later', () => {
  const verdict = check.evaluate(run({ exchanges: [{ at: 1700, sessionCreated: true }, { at: 2100, sessionCreated: false }] }))!;
  expect([verdict.status, verdict.reason]).toEqual(['fail', 'the agency exchanged the code after the probe "truncated" (1 call(s) to POST /sessions besides the journey\'s own, 1 session(s) created)']);
});

test('without any successful exchange in the run, a missing exchange proves nothing: inconclusive, never a pass', () => {
  const verdict = check.evaluate(run({ exchanges: [] }))!;
  expect([verdict.status, verdict.reason]).toEqual(['inconclusive', 'not proven: this run saw no successful exchange, so a missing exchange proves nothing']);
});

test('the tampered states: changed, truncated, extended, halved, case-swapped and empty, each different from the original', () => {
  const state = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE';
  const variants = tamperings(state);
  expect(variants.map(([variant]) => variant)).toEqual(['last character changed', 'truncated', 'extended', 'first half only', 'case swapped', 'empty']);
  expect(Object.fromEntries(variants)).toEqual({
    'last character changed': `${state.slice(0, -1)}A`, truncated: state.slice(0, -1), extended: `${state}A`, 'first half only': state.slice(0, 22),
    'case swapped': 'aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789-_aBcDe', empty: '',
  });
  for (const [, tampered] of variants) expect(tampered).not.toBe(state);
});
