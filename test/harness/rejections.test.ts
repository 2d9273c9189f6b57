/**
 * A rejection passes only on positive evidence: no exchange of the code from any probe however
 * late, on a transaction shown alive by a control exchange. What the page shows is evidence for
 * the brand, not the verdict: an agency may word its refusal as it likes.
 */
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { CALLBACK_CHECKS } from '../../harness/checks/callback.js';
import { PKCE_CHECKS } from '../../harness/checks/pkce.js';
import { ConfigSchema } from '../../harness/config.js';
import type { ObservedCall } from '../../harness/emulator-client/client.js';
import { type JourneyFacts, type Probe, RunFacts } from '../../harness/run/facts.js';
import { tamperings } from '../../harness/run/probes.js';

const CODE = 'sc_code-of-the-journey';
const check = PKCE_CHECKS.find((candidate) => candidate.id === 'state.tampered_rejected')!;
const ORIGINS = { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' };

function journey(name: string, code: string, completedAt?: number, scenario = 'state-tampered'): JourneyFacts {
  return {
    scenario, journey: name, pack: { code: 'P1', outcome: 'lost' }, country: 'DE', email: 'h@example.test', consent: [], submissions: [],
    issuedCallback: `http://127.0.0.1:3000/callback?service_code=${code}&state=s`,
    ...(completedAt === undefined ? {} : { completion: { at: completedAt, status: 303, location: '/result', landed: 'http://127.0.0.1:3000/result' } }),
  };
}

function tampered(variant: string, at: number, options: { journey?: string; fresh?: boolean; code?: string } = {}): Probe {
  return {
    kind: 'tampered_state', variant, scenario: 'state-tampered', journey: options.journey ?? 'main', at, fresh: options.fresh ?? true, codeSha: sha(options.code ?? CODE),
    url: 'http://127.0.0.1:3000/callback?service_code=…&state=…', page: { status: 400, url: 'http://127.0.0.1:3000/callback', shows: [], title: 'Ein Fehler' },
  };
}

function exchange(seq: number, at: number, code: string, sessionCreated: boolean): ObservedCall {
  return {
    seq, at, method: 'POST', path: '/sessions', environment: 'production', key_id: 2, session_id: sessionCreated ? seq : null, pack: 'P1', scenario: null,
    status: sessionCreated ? 201 : 400, body: {}, code_sha256: sha(code), answer: sessionCreated ? { session_created: true } : { error: 'invalid_grant' },
  };
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const facts = () => new RunFacts(ConfigSchema.parse({}), ORIGINS, '/tmp');

/** Two tampered-state probes at t=1000 and t=1500, then the callback opened as issued at t=2000. */
function run(options: { exchanges: Array<{ at: number; sessionCreated: boolean }> }): RunFacts {
  const seen = facts();
  seen.journeys.push(journey('main', CODE, 2000));
  seen.probes.push(tampered('last character changed', 1000), tampered('truncated', 1500, { fresh: false }));
  seen.calls.push(...options.exchanges.map((item, index) => exchange(index + 1, item.at, CODE, item.sessionCreated)));
  return seen;
}

test('the code exchanged once only, by the callback opened as issued after the probes: passes, with that exchange as the control, whatever the page says', () => {
  const verdict = check.evaluate(run({ exchanges: [{ at: 2100, sessionCreated: true }] }))!;
  expect([verdict.status, verdict.observed]).toEqual(['pass', 2]);
  expect(verdict.evidence.at(-1)!.label).toMatch(/; control: the same transaction opened as issued afterwards was exchanged \(HTTP 201\)$/);
});

test('an exchange after a probe fails, naming the probe it followed, even one made in the background later', () => {
  const verdict = check.evaluate(run({ exchanges: [{ at: 1700, sessionCreated: true }, { at: 2100, sessionCreated: false }] }))!;
  expect([verdict.status, verdict.reason]).toEqual(['fail', 'state-tampered: the agency exchanged the code after the probe "truncated" (1 call(s) to POST /sessions besides the journey\'s own, 1 session(s) created)']);
});

test('without any exchange, a refusal proves nothing: inconclusive, never a pass', () => {
  const verdict = check.evaluate(run({ exchanges: [] }))!;
  expect([verdict.status, verdict.reason]).toEqual(['inconclusive', expect.stringMatching(/^not proven: 2 of 2 probe\(s\) were refused on a transaction not shown alive/)]);
});

test('seen 2: probes one after another on one transaction that the first consumed, refused for a missing transaction, prove nothing, whatever else the run exchanged', () => {
  const seen = facts();
  // The agency consumed the transaction at the first mismatch: the callback opened as issued was refused too, without an exchange.
  seen.journeys.push(journey('main', CODE, 4000), journey('main', 'sc_other', 100, 'production-won'));
  seen.probes.push(...['last character changed', 'truncated', 'extended', 'first half only', 'case swapped', 'empty'].map((variant, index) => tampered(variant, 1000 + index * 100, { fresh: index === 0 })));
  seen.calls.push(exchange(1, 200, 'sc_other', true));
  const verdict = check.evaluate(seen)!;
  expect([verdict.status, verdict.reason]).toEqual(['inconclusive', expect.stringMatching(/^not proven: 6 of 6 probe\(s\)/)]);
});

test('each probe on a fresh transaction of its own: proven by its own control, or, when the agency consumed it on the mismatch, by the scenario\'s unprobed journey exchanged as issued', () => {
  const seen = facts();
  seen.journeys.push(journey('main', CODE, 5000), journey('main-tampered-1', 'sc_t1', 3000), journey('main-tampered-2', 'sc_t2', 3000));
  seen.probes.push(tampered('last character changed', 2000, { journey: 'main-tampered-1', code: 'sc_t1' }), tampered('truncated', 2000, { journey: 'main-tampered-2', code: 'sc_t2' }));
  seen.calls.push(exchange(1, 3100, 'sc_t1', true), exchange(2, 5100, CODE, true));
  const verdict = check.evaluate(seen)!;
  expect([verdict.status, verdict.observed]).toEqual(['pass', 2]);
  expect(verdict.evidence.map((item) => item.label.split('; ')[1])).toEqual([
    'control: the same transaction opened as issued afterwards was exchanged (HTTP 201)',
    'the probe was the first callback of a fresh transaction, and state-tampered, started the same way and not probed, was exchanged as issued (the agency may consume a transaction on a mismatched callback)',
  ]);
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

test('seen 7: a callback refused because a probe took its code is the probe\'s evidence, never callback.clean_url\'s', () => {
  const cleanUrl = CALLBACK_CHECKS.find((candidate) => candidate.id === 'callback.clean_url')!;
  const seen = facts();
  // The agency accepted the tampered state and exchanged the code; the callback opened as issued afterwards was refused with 400.
  seen.journeys.push({ ...journey('main', CODE, 2000), completion: { at: 2000, status: 400, location: undefined, landed: 'http://127.0.0.1:3000/callback?service_code=x&state=s' } });
  seen.probes.push(tampered('last character changed', 1000));
  seen.calls.push(exchange(1, 1100, CODE, true));
  expect(check.evaluate(seen)!.status).toBe('fail');
  expect(cleanUrl.evaluate(seen)).toBeUndefined();
  // A journey of its own that redirected cleanly is still judged.
  seen.journeys.push(journey('main', 'sc_won', 3000, 'production-won'));
  seen.calls.push(exchange(2, 3100, 'sc_won', true));
  expect(cleanUrl.evaluate(seen)).toMatchObject({ status: 'pass', observed: 1 });
});

test('a run cut by its bound while the control opened the callback (no completion recorded): the exchange it set off is the journey\'s own, never a failure of the probe (issue 48 item 2)', () => {
  const seen = facts();
  const cut = journey('main', CODE);
  cut.openedAt = 2000;
  seen.journeys.push(cut);
  seen.probes.push(tampered('empty', 1000));
  seen.calls.push(exchange(1, 2100, CODE, true));
  const verdict = check.evaluate(seen)!;
  expect(verdict.status).not.toBe('fail');
  expect(verdict.evidence.at(-1)!.label).toMatch(/control: the same transaction opened as issued afterwards was exchanged/);
});
