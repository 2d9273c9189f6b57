/** The behaviour checks on hand-made facts: a pass, a fail, and no verdict (inconclusive) when nothing was observed. */
import { describe, expect, test } from 'vitest';
import { ConfigSchema } from '../config.js';
import type { ObservedCall } from '../emulator-client/client.js';
import type { Shown } from '../journey-states.js';
import type { PageSeen } from '../run/browser-seen.js';
import { RunFacts } from '../run/facts.js';
import type { Scenario } from '../scenarios/schema.js';
import { BEHAVIOUR_CHECKS } from './behaviour.js';
import { evaluateChecks } from './evaluate.js';

const AGENCY = 'http://127.0.0.1:3000';
const SCENARIO = 'polling-stops-delivered';
const check = (id: string) => BEHAVIOUR_CHECKS.find((candidate) => candidate.id === id)!;
const facts = () => new RunFacts(ConfigSchema.parse({}), { agency: AGENCY, emulator: 'http://127.0.0.1:4010', callback: `${AGENCY}/callback` }, '/tmp');

let seq = 0;
const call = (fields: Partial<ObservedCall>): ObservedCall => ({
  seq: (seq += 1), at: 0, method: 'GET', path: '/session', environment: 'production', key_id: 2, session_id: 1, pack: 'P1', scenario: null, status: 200, body: null, ...fields,
});
const page = (shows: Shown[]): PageSeen => ({ scenario: SCENARIO, journey: 'main', environment: 'production', at: 40_000, url: `${AGENCY}/result`, status: 200, shows, links: [], title: '', text: '' });
const pageRequest = (at: number, resourceType = 'fetch') => ({ scenario: SCENARIO, journey: 'main', at, method: 'GET', url: `${AGENCY}/result/status`, referer: undefined, resourceType, from: `${AGENCY}/result` });

/** A delivery watched from the entry (t = 0) for 60 s: polled at 2 s (pending) and 7 s (delivered), the page ending on `shows`. */
function deliveredWatch(shows: Shown[] = ['page:result', 'state:won']): RunFacts {
  const seen = facts();
  seen.polls.push({ scenario: SCENARIO, journey: 'main', pack: 'P1', mode: 'stops', from: 0, until: 60_000, finalPage: page(shows), virtualMs: 600_000 });
  seen.calls.push(call({ at: 2000, answer: { delivery_state: 'pending' } as ObservedCall['answer'] }), call({ at: 7000, answer: { delivery_state: 'delivered' } as ObservedCall['answer'] }));
  seen.requests.push(pageRequest(1900), pageRequest(6900));
  return seen;
}

describe('behaviour.polling_stops', () => {
  const stops = check('behaviour.polling_stops');

  test('no watch: no verdict, which the run reports as inconclusive', () => {
    expect(stops.evaluate(facts())).toBeUndefined();
    const [report] = evaluateChecks(facts(), [stops], [{ id: SCENARIO, feeds: [stops.id] } as unknown as Scenario]);
    expect(report).toMatchObject({ status: 'inconclusive', reason: 'this run observed nothing it judges' });
  });

  test('polling that stopped at delivered, the page ending on won: pass', () => {
    expect(stops.evaluate(deliveredWatch())).toMatchObject({ status: 'pass', observed: 1 });
  });

  test('the service polled again after delivered: fail', () => {
    const seen = deliveredWatch();
    seen.calls.push(call({ at: 37_000, answer: { delivery_state: 'delivered' } as ObservedCall['answer'] }));
    expect(stops.evaluate(seen)).toMatchObject({ status: 'fail', reason: `${SCENARIO}: the service was polled again after delivery delivered (1 more poll(s))` });
  });

  test("a page's own requests to the agency after the end count against it, though the service is not polled again (issue 43 item 6)", () => {
    const seen = deliveredWatch();
    // The first request after the end is the page hearing of it; the two after that are polling.
    seen.requests.push(pageRequest(7500), pageRequest(20_000), pageRequest(50_000));
    expect(stops.evaluate(seen)).toMatchObject({ status: 'fail', reason: `${SCENARIO}: the page went on asking the agency after delivery delivered (2 request(s), e.g. GET /result/status)` });
  });

  test('what the page does while it learns of the end (its next request, and a reload within 2 s) and what is not polling (an image) do not count', () => {
    const seen = deliveredWatch();
    seen.requests.push(pageRequest(8000, 'document'), pageRequest(30_000, 'image'));
    expect(stops.evaluate(seen)).toMatchObject({ status: 'pass' });
  });

  test('a page still showing pending after delivered: fail; one the harness cannot recognise: inconclusive, naming the markers', () => {
    expect(stops.evaluate(deliveredWatch(['page:result', 'state:pending']))).toMatchObject({ status: 'fail', reason: expect.stringContaining('the page still shows page:result, state:pending, not won') });
    expect(stops.evaluate(deliveredWatch(['page:result']))).toMatchObject({ status: 'inconclusive', configure: expect.stringContaining('markers.states.won') });
  });
});

describe('behaviour.no_redraw_after_failed', () => {
  const redraw = check('behaviour.no_redraw_after_failed');
  const failedEntry = () => call({ method: 'POST', path: '/session/entry', answer: { entry_state: 'failed' } as ObservedCall['answer'] });

  test('no failed delivery: no verdict', () => {
    expect(redraw.evaluate(facts())).toBeUndefined();
  });

  test('a failed delivery never entered again passes; an entry after it fails', () => {
    const seen = facts();
    seen.calls.push(failedEntry());
    expect(redraw.evaluate(seen)).toMatchObject({ status: 'pass', observed: 1 });
    seen.calls.push(call({ method: 'POST', path: '/session/entry', answer: { entry_state: 'won' } as ObservedCall['answer'] }));
    expect(redraw.evaluate(seen)).toMatchObject({ status: 'fail', reason: 'after a failed delivery the entry was submitted again (1 call(s))' });
  });
});
