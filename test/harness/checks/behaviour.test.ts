/** The behaviour checks on hand-made facts: a pass, a fail, and no verdict (inconclusive) when nothing was observed. */
import { describe, expect, test } from 'vitest';
import { ConfigSchema } from '../../../harness/config.js';
import type { ObservedCall } from '../../../harness/emulator-client/client.js';
import type { Shown } from '../../../harness/journey-states.js';
import type { PageSeen } from '../../../harness/browser/seen.js';
import { type JourneyFacts, RunFacts } from '../../../harness/run/facts.js';
import type { Scenario } from '../../../harness/scenarios/schema.js';
import { BEHAVIOUR_CHECKS } from '../../../harness/checks/behaviour.js';
import { evaluateChecks } from '../../../harness/checks/evaluate.js';

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

  test.for([
    ['a WebSocket', 'websocket-frame', 'ws://127.0.0.1:3000/live', 'SEND'],
    ['an EventSource', 'eventsource', `${AGENCY}/events`, 'GET'],
    ['JSONP script tags', 'script', `${AGENCY}/status.js?callback=cb`, 'GET'],
    ['sendBeacon', 'ping', `${AGENCY}/beacon`, 'POST'],
    ['image pings', 'image', `${AGENCY}/pixel.gif?t=1`, 'GET'],
    ['stylesheet links', 'stylesheet', `${AGENCY}/state.css?t=1`, 'GET'],
    ['a shared worker', 'fetch', `${AGENCY}/from-worker`, 'GET'],
    ['another port of the same host', 'xhr', 'http://127.0.0.1:3001/status', 'GET'],
  ])('a page that goes on asking the agency every 2 s over %s after the end: fail (issue 48 item 2)', ([, resourceType, url, method]) => {
    const seen = deliveredWatch();
    seen.requests.push(...Array.from({ length: 10 }, (_, index) => ({ ...pageRequest(10_000 + index * 2000, resourceType), url, method })));
    // The first request after the end may be the page hearing of it (a fetch or stream of its own origin): the rest are polling.
    expect(stops.evaluate(seen)).toMatchObject({ status: 'fail', reason: expect.stringMatching(new RegExp(`the page went on asking the agency after delivery delivered \\((9|10) request\\(s\\), e\\.g\\. ${method} ${new URL(url).pathname}\\)`)) });
  });

  test('one late load of each kind of resource, or one frame or beacon, is not polling; a request to another host is not asking the agency', () => {
    const seen = deliveredWatch();
    for (const [index, resourceType] of ['image', 'stylesheet', 'script', 'font', 'ping', 'websocket-frame'].entries()) seen.requests.push({ ...pageRequest(12_000 + index * 1000, resourceType), url: `${AGENCY}/${resourceType}` });
    seen.requests.push(...Array.from({ length: 5 }, (_, index) => ({ ...pageRequest(20_000 + index * 2000), url: 'https://analytics.example/collect' })));
    expect(stops.evaluate(seen)).toMatchObject({ status: 'pass' });
  });

  test('a page still showing pending after delivered: fail; one the harness cannot recognise: inconclusive, naming the markers', () => {
    expect(stops.evaluate(deliveredWatch(['page:result', 'state:pending']))).toMatchObject({ status: 'fail', reason: expect.stringContaining('the page still shows page:result, state:pending, not won') });
    expect(stops.evaluate(deliveredWatch(['page:result']))).toMatchObject({ status: 'inconclusive', configure: expect.stringContaining('markers.states.won') });
  });
});

/**
 * A page that polls for ever fails within its watch wherever the harness has evidence that polling
 * had to stop (issue 42, item 2): each path on made-up facts, and inconclusive only without such evidence.
 */
describe('behaviour.polling_stops: a page that polls for ever', () => {
  const stops = check('behaviour.polling_stops');
  const entry = (answer: Partial<NonNullable<ObservedCall['answer']>>) => call({ method: 'POST', path: '/session/entry', at: 0, answer: answer as ObservedCall['answer'] });
  /** The pending entry at t = 0, watched for 60 s and five minutes of the page's timers, the step ending at 80 s; the page asks the agency every 5 s throughout. */
  function asksForEver(pollingEnded?: { at: number; by: string }): RunFacts {
    const seen = facts();
    seen.polls.push({ scenario: SCENARIO, journey: 'main', pack: 'P1', mode: 'stops', from: 0, until: 60_000, finalPage: page(['page:result', 'state:pending']), virtualMs: 300_000, ended: 80_000 });
    seen.calls.push(entry({ entry_state: 'pending', delivery_state: 'processing' }));
    seen.requests.push(...Array.from({ length: 16 }, (_, index) => pageRequest(1000 + index * 5000)));
    seen.journeys.push({ scenario: SCENARIO, journey: 'main', ...(pollingEnded ? { pollingEnded } : {}) } as JourneyFacts);
    return seen;
  }

  test('the service never polled after the harness settled the delivery, the page asking its server for ever: fail, naming the settle and the requests', () => {
    const verdict = stops.evaluate(asksForEver({ at: 1500, by: 'the harness settled the delivery as delivered, which the emulator then answers to every read' }));
    expect(verdict).toMatchObject({ status: 'fail', reason: expect.stringMatching(/^polling-stops-delivered: the harness settled the delivery as delivered, .* 2 s after the entry, and no poll reached the service after it \(0 poll\(s\) in 60 s; the next was due 7 s after the entry, 5 s late included\); the page asked the agency 15 time\(s\) since, so it polls for ever without learning the end$/) });
  });

  test('the same after the harness made the session read answer 401: fail, naming the 401', () => {
    expect(stops.evaluate(asksForEver({ at: 1500, by: 'the harness made the session read answer 401 invalid_session' }))).toMatchObject({ status: 'fail', reason: expect.stringContaining('the harness made the session read answer 401 invalid_session 2 s after the entry, and no poll reached the service after it') });
  });

  test('without anything that ended polling, and a watch that ended before the next poll was due: inconclusive, saying what to configure', () => {
    const seen = asksForEver();
    seen.polls[0]!.until = 6000;
    expect(stops.evaluate(seen)).toMatchObject({ status: 'inconclusive', configure: expect.stringContaining('settle_delivery') });
    // The harness ended the delivery, but no poll was due yet: nothing proves the agency would not have asked.
    const early = asksForEver({ at: 1500, by: 'the harness settled the delivery as delivered' });
    early.polls[0]!.until = 6000;
    expect(stops.evaluate(early)).toMatchObject({ status: 'inconclusive', reason: expect.not.stringContaining('for ever') });
  });

  test("a server that polls the service on its own timer after the end, past the watch's quiet time but within its step: fail", () => {
    const seen = deliveredWatch();
    seen.polls[0]!.until = 16_000;
    seen.polls[0]!.ended = 40_000;
    seen.calls.push(call({ at: 37_000, answer: { delivery_state: 'delivered' } as ObservedCall['answer'] }));
    expect(stops.evaluate(seen)).toMatchObject({ status: 'fail', reason: `${SCENARIO}: the service was polled again after delivery delivered (1 more poll(s))` });
  });

  test('a read that says the integration is unavailable ends polling: an agency that stops passes, one that polls on fails', () => {
    const seen = facts();
    seen.polls.push({ scenario: SCENARIO, journey: 'main', pack: 'P1', mode: 'stops', from: 0, until: 60_000, finalPage: page(['page:result']), virtualMs: 300_000, ended: 80_000 });
    seen.calls.push(call({ at: 2000, answer: { delivery_state: 'processing', eligibility: 'unavailable' } as ObservedCall['answer'] }));
    expect(stops.evaluate(seen)).toMatchObject({ status: 'pass' });
    seen.calls.push(call({ at: 7000, answer: { delivery_state: 'processing', eligibility: 'unavailable' } as ObservedCall['answer'] }));
    expect(stops.evaluate(seen)).toMatchObject({ status: 'fail', reason: `${SCENARIO}: the service was polled again after eligibility unavailable (1 more poll(s))` });
  });

  test('an entry the service answered won at once needs no polling: none passes, a session read after it fails', () => {
    const seen = facts();
    seen.polls.push({ scenario: SCENARIO, journey: 'main', pack: 'P1', mode: 'stops', from: 0, until: 60_000, finalPage: page(['page:result', 'state:won']), virtualMs: 300_000, ended: 80_000 });
    seen.calls.push(entry({ entry_state: 'won', delivery_state: 'delivered' }));
    expect(stops.evaluate(seen)).toMatchObject({ status: 'pass' });
    seen.calls.push(call({ at: 2000, answer: { delivery_state: 'delivered' } as ObservedCall['answer'] }));
    expect(stops.evaluate(seen)).toMatchObject({ status: 'fail', reason: `${SCENARIO}: the service was polled again after won (1 more poll(s))` });
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
