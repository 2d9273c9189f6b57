/** The questions checks ask of the emulator's observed calls, on hand-made calls: found, not found, and none observed. */
import { expect, test } from 'vitest';
import { ConfigSchema } from '../../../harness/config.js';
import type { ObservedCall } from '../../../harness/emulator-client/client.js';
import { type JourneyFacts, RunFacts, sha256 } from '../../../harness/run/facts.js';
import { issuedExchange, journeyExchanges, productionEntries, serviceCode, where } from '../../../harness/checks/observed.js';

const AGENCY = 'http://127.0.0.1:3000';
const facts = () => new RunFacts(ConfigSchema.parse({}), { agency: AGENCY, emulator: 'http://127.0.0.1:4010', callback: `${AGENCY}/callback` }, '/tmp');
const journey = (fields: Partial<JourneyFacts> = {}): JourneyFacts => ({
  scenario: 'state-tampered', journey: 'main', pack: { code: 'P1', outcome: 'won' } as JourneyFacts['pack'], country: 'DE', email: 'h@example.test', consent: [], submissions: [],
  issuedCallback: `${AGENCY}/callback?service_code=code-1&state=s1`, completion: { at: 10_000, status: 303, location: '/result', landed: `${AGENCY}/result` }, ...fields,
});
let seq = 0;
const exchange = (at: number, code = 'code-1', environment: ObservedCall['environment'] = 'production'): ObservedCall => ({
  seq: (seq += 1), at, method: 'POST', path: '/sessions', environment, key_id: 2, session_id: seq, pack: 'P1', scenario: null, status: 201, body: null, code_sha256: sha256(code),
});

test('a journey without a callback from the service has no code and no exchange; with no calls observed, none is found', () => {
  const bare = journey({ issuedCallback: undefined, completion: undefined });
  expect([serviceCode(bare), journeyExchanges(facts(), bare), issuedExchange(facts(), bare)]).toEqual([undefined, [], undefined]);
  expect(journeyExchanges(facts(), journey())).toEqual([]);
  expect(issuedExchange(facts(), journey())).toBeUndefined();
});

test("a journey's exchanges are those of its own code, in production; the issued one is the first seen once its browser opened the callback", () => {
  const seen = facts();
  const probe = exchange(9000);
  const issued = exchange(10_020);
  const later = exchange(12_000);
  seen.calls.push(probe, exchange(10_500, 'another-code'), exchange(10_600, 'code-1', 'sandbox'), issued, later);
  expect(journeyExchanges(seen, journey())).toEqual([probe, issued, later]);
  expect(issuedExchange(seen, journey())).toBe(issued);
});

test('the two clocks: an exchange the emulator saw just before the harness noted opening the callback is still the issued one, within the skew only', () => {
  const seen = facts();
  seen.clockOffset = -1000;
  const early = exchange(8980);
  seen.calls.push(early);
  expect(issuedExchange(seen, journey())).toBe(early);
  seen.clockOffset = 0;
  expect(issuedExchange(seen, journey())).toBeUndefined();
});

test("production entries pair each journey with its pack's entry calls; where names the scenario, and a journey other than main", () => {
  const seen = facts();
  expect(productionEntries(seen)).toEqual([]);
  const main = journey();
  const other = journey({ journey: 'other-browser', pack: { code: 'P2', outcome: 'lost' } as JourneyFacts['pack'] });
  seen.journeys.push(main, other);
  const entry = { ...exchange(11_000), path: '/session/entry', pack: 'P2' };
  seen.calls.push(exchange(10_100), entry);
  expect(productionEntries(seen)).toEqual([{ journey: other, call: entry }]);
  expect([where(main), where(other)]).toEqual(['state-tampered', 'state-tampered/other-browser']);
});
