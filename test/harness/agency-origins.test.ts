/**
 * Issue 47, item 4: one agency on two origins, its pages on one and its API and callback on another,
 * the callback answering 303 to the pages' origin. Every origin the journey runs on is the
 * agency's: the callback's, the preview's, and those the callback redirects to (the service's
 * excepted), so their requests are not a third party's and count for the polling checks. On
 * made-up facts, as the browser session records them.
 */
import { describe, expect, test } from 'vitest';
import { BEHAVIOUR_CHECKS } from '../../harness/checks/behaviour.js';
import { CALLBACK_CHECKS } from '../../harness/checks/callback.js';
import { ConfigSchema } from '../../harness/config.js';
import type { ObservedCall } from '../../harness/emulator-client/client.js';
import { RunFacts } from '../../harness/run/facts.js';

const API = 'http://127.0.0.1:3001';
const WEB = 'http://127.0.0.1:3002';
const EMULATOR = 'http://127.0.0.1:4010';
const SCENARIO = 'polling-stops-delivered';
const check = (id: string) => [...BEHAVIOUR_CHECKS, ...CALLBACK_CHECKS].find((candidate) => candidate.id === id)!;
const facts = (preview?: string) => new RunFacts(ConfigSchema.parse({}), { agency: API, emulator: EMULATOR, callback: `${API}/callback`, ...(preview ? { preview } : {}) }, '/tmp');
const request = (url: string, at = 1, resourceType = 'fetch') => ({ scenario: SCENARIO, journey: 'main', at, method: 'GET', url, referer: undefined, resourceType, from: `${WEB}/result` });

describe("the agency's origins", () => {
  test("the callback's, the preview's, and where the callback redirects the browser (not the service, not where another page redirects)", () => {
    const seen = facts(`${WEB}/preview`);
    expect([seen.isAgency(`${API}/entry`), seen.isAgency(`${WEB}/preview/won`), seen.isAgency('http://127.0.0.1:3003/')]).toEqual([true, true, false]);
    const other = facts();
    expect(other.isAgency(`${WEB}/result`)).toBe(false);
    other.noteRedirect(`${API}/callback?service_request=r`, `${EMULATOR}/authorize?request=r`);
    other.noteRedirect(`${WEB}/result`, 'http://127.0.0.1:3003/elsewhere');
    expect([other.isAgency(`${EMULATOR}/authorize`), other.isAgency('http://127.0.0.1:3003/elsewhere')]).toEqual([false, false]);
    other.noteRedirect(`${API}/callback?service_code=c&state=s`, `${WEB}/result`);
    expect(other.isAgency(`${WEB}/result/status`)).toBe(true);
  });

  test("the pages' own origin is no third party once the callback led there; another origin still is", () => {
    const seen = facts();
    seen.pages.push({ scenario: 'landing', journey: 'main', environment: 'production', at: 1, url: `${WEB}/`, status: 200, shows: [], links: [], title: '', text: '' });
    seen.requests.push(request(`${WEB}/styles.css`, 1, 'stylesheet'), request(`${API}/result/status`));
    seen.noteRedirect(`${API}/callback`, `${WEB}/`);
    expect(check('callback.no_third_party').evaluate(seen)!.status).toBe('pass');
    seen.requests.push(request('https://tags.example/tag.js', 1, 'script'));
    expect(check('callback.no_third_party').evaluate(seen)).toMatchObject({ status: 'fail', reason: expect.stringContaining('script https://tags.example/tag.js') });
  });

  test('a page that asks its own server on the origin the callback led to for ever fails behaviour.polling_stops', () => {
    const seen = facts();
    seen.noteRedirect(`${API}/callback?service_code=c&state=s`, `${WEB}/result`);
    const page = { scenario: SCENARIO, journey: 'main', environment: 'production' as const, at: 40_000, url: `${WEB}/result`, status: 200, shows: ['page:result' as const, 'state:won' as const], links: [], title: '', text: '' };
    seen.polls.push({ scenario: SCENARIO, journey: 'main', pack: 'P1', mode: 'stops', from: 0, until: 60_000, finalPage: page, virtualMs: 600_000 });
    const read = (at: number, delivery: string) => ({ seq: at, at, method: 'GET', path: '/session', environment: 'production', key_id: 2, session_id: 1, pack: 'P1', scenario: null, status: 200, body: null, answer: { delivery_state: delivery } }) as unknown as ObservedCall;
    seen.calls.push(read(2000, 'pending'), read(7000, 'delivered'));
    seen.requests.push(request(`${WEB}/result/status`, 1900), request(`${WEB}/result/status`, 6900), request(`${WEB}/result/status`, 7500), request(`${WEB}/result/status`, 20_000), request(`${WEB}/result/status`, 50_000));
    expect(check('behaviour.polling_stops').evaluate(seen)).toMatchObject({ status: 'fail', reason: expect.stringContaining('the page went on asking the agency after delivery delivered (2 request(s)') });
  });
});
