/** The callback checks on built facts: nothing observed, a violation, and a clean run, for each. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigSchema } from '../../../harness/config.js';
import type { ObservedCall } from '../../../harness/emulator-client/client.js';
import type { AgencyResponse } from '../../../harness/browser/seen.js';
import { readAgencyLog } from '../../../harness/run/agency-log.js';
import { type JourneyFacts, RunFacts, sha256 } from '../../../harness/run/facts.js';
import type { Scenario } from '../../../harness/scenarios/schema.js';
import { CALLBACK_CHECKS, secureCookieRequired } from '../../../harness/checks/callback.js';
import { evaluateChecks } from '../../../harness/checks/evaluate.js';

const AGENCY = 'http://127.0.0.1:3000';
const facts = (config: Record<string, unknown> = {}) => new RunFacts(ConfigSchema.parse(config), { agency: AGENCY, emulator: 'http://127.0.0.1:4010', callback: `${AGENCY}/callback` }, '/tmp');
const check = (id: string) => CALLBACK_CHECKS.find((candidate) => candidate.id === id)!;
const response = (fields: Partial<AgencyResponse>): AgencyResponse => ({ scenario: 'production-won', journey: 'main', method: 'GET', url: `${AGENCY}/callback?service_code=c&state=s`, status: 303, headers: {}, setCookies: [], ...fields });

describe.each([
  ['callback.no_store', 'cache-control', 'no-store, private', 'max-age=60'],
  ['callback.referrer_policy', 'referrer-policy', 'strict-origin, same-origin', 'no-referrer-when-downgrade'],
])('%s', (id, header, good, bad) => {
  test('no callback response: no verdict (inconclusive)', () => {
    const seen = facts();
    seen.responses.push(response({ url: `${AGENCY}/`, headers: { [header]: bad } }));
    expect(check(id).evaluate(seen)).toBeUndefined();
  });
  test(`fails on a callback response without it, passes when every one has it`, () => {
    const seen = facts();
    seen.responses.push(response({ headers: { [header]: good } }));
    expect(check(id).evaluate(seen)!.status).toBe('pass');
    seen.responses.push(response({ headers: { [header]: bad } }));
    expect(check(id).evaluate(seen)).toMatchObject({ status: 'fail', reason: expect.stringContaining(`1 of 2 callback responses lack ${header}`) });
  });
});

test('callback.referrer_policy: a pass quotes the policy the agency sent, not the one the check asks for', () => {
  const seen = facts();
  seen.responses.push(response({ headers: { 'referrer-policy': 'no-referrer' } }), response({ headers: { 'referrer-policy': 'no-referrer' } }));
  const verdict = check('callback.referrer_policy').evaluate(seen)!;
  expect(verdict).toMatchObject({ status: 'pass', reason: '2 callback responses, each with referrer-policy as same-origin (or the stricter no-referrer) asks: "no-referrer" (2)' });
  expect(verdict.evidence[0]!.label).toContain('referrer-policy: no-referrer');
});

describe('callback.clean_url', () => {
  const journey = (landed: string, status = 303): JourneyFacts => ({
    scenario: 'production-won', journey: 'main', pack: { code: 'P1', outcome: 'won' }, country: 'DE', email: 'h@example.test', consent: [], submissions: [],
    issuedCallback: `${AGENCY}/callback?service_code=code1&state=state1`, completion: { at: 1, status, location: status === 303 ? landed : undefined, landed },
  });
  const exchanged = (seen: RunFacts) => seen.calls.push({ seq: 1, at: 1, method: 'POST', path: '/sessions', environment: 'production', key_id: 2, session_id: 1, pack: 'P1', scenario: null, status: 201, body: null, code_sha256: sha256('code1'), answer: { session_created: true } } as unknown as ObservedCall);
  test('no callback whose exchange made a session: no verdict', () => {
    const seen = facts();
    seen.journeys.push(journey(`${AGENCY}/entry?state=state1`));
    expect(check('callback.clean_url').evaluate(seen)).toBeUndefined();
  });
  test('a redirect to a clean URL passes; one still carrying state, or a 200 in place, fails', () => {
    const run = (landed: string, status?: number) => {
      const seen = facts();
      seen.journeys.push(journey(landed, status));
      exchanged(seen);
      return check('callback.clean_url').evaluate(seen)!;
    };
    expect(run(`${AGENCY}/entry`).status).toBe('pass');
    expect(run(`${AGENCY}/entry?state=state1`)).toMatchObject({ status: 'fail', reason: expect.stringContaining('still carries journey parameters') });
    expect(run(`${AGENCY}/callback?service_code=code1&state=state1`, 200)).toMatchObject({ status: 'fail', reason: expect.stringContaining('answered 200 instead of redirecting') });
  });
});

describe('callback.no_third_party', () => {
  const page = { scenario: 'landing', journey: 'main', environment: 'production' as const, at: 1, url: `${AGENCY}/`, status: 200, shows: [], links: [], title: '', text: '' };
  const request = (url: string) => ({ scenario: 'landing', journey: 'main', at: 1, method: 'GET', url, referer: undefined, resourceType: 'font', from: `${AGENCY}/` });
  test('no page seen: no verdict', () => {
    expect(check('callback.no_third_party').evaluate(facts())).toBeUndefined();
  });
  test('requests to the agency, the service and a configured first party pass; any other origin fails', () => {
    const seen = facts({ first_party_origins: ['https://cdn.brand.example'] });
    seen.pages.push(page);
    seen.requests.push(request(`${AGENCY}/app.css`), request('http://127.0.0.1:4010/campaign'), request('https://cdn.brand.example/logo.svg'));
    expect(check('callback.no_third_party').evaluate(seen)!.status).toBe('pass');
    seen.requests.push(request('https://fonts.example.com/font.woff2?v=1'));
    expect(check('callback.no_third_party').evaluate(seen)).toMatchObject({ status: 'fail', reason: expect.stringContaining('font https://fonts.example.com/font.woff2') });
  });
  test("a WebSocket is judged by its site: the agency's own (ws:// beside http://) passes, another origin's fails, frames included (issue 48 item 2)", () => {
    const seen = facts();
    seen.pages.push(page);
    const socket = (url: string, method = 'GET') => ({ ...request(url), method, resourceType: method === 'GET' ? 'websocket' : 'websocket-frame' });
    seen.requests.push(socket(`${AGENCY.replace('http:', 'ws:')}/live`), socket(`${AGENCY.replace('http:', 'ws:')}/live`, 'SEND'));
    expect(check('callback.no_third_party').evaluate(seen)!.status).toBe('pass');
    seen.requests.push(socket('wss://push.example.net/socket', 'SEND'));
    expect(check('callback.no_third_party').evaluate(seen)).toMatchObject({ status: 'fail', reason: expect.stringContaining('websocket-frame wss://push.example.net/socket') });
  });
});

describe('an allowance of the config is shown beside the check it changed (issue 42 item 4)', () => {
  const page = { scenario: 'landing', journey: 'main', environment: 'production' as const, at: 1, url: `${AGENCY}/`, status: 200, shows: [], links: [], title: '', text: '' };
  const analytics = { scenario: 'landing', journey: 'main', at: 1, method: 'GET', url: 'https://analytics.example/tag.js?id=1', referer: undefined, resourceType: 'script', from: `${AGENCY}/` };
  test('first_party_origins naming an analytics host: the pass says so, and its evidence lists what was let through', () => {
    const seen = facts({ first_party_origins: ['https://analytics.example'] });
    seen.pages.push(page);
    seen.requests.push(analytics);
    const verdict = check('callback.no_third_party').evaluate(seen)!;
    expect(verdict).toMatchObject({ status: 'pass', reason: expect.stringContaining('1 resource(s) from origins the config counts as first party (first_party_origins: https://analytics.example)') });
    expect(verdict.evidence).toEqual([{ label: 'allowed by the config (first_party_origins): script https://analytics.example/tag.js' }]);
    const [report] = evaluateChecks(seen, [check('callback.no_third_party')], [{ id: 'landing', feeds: ['callback.no_third_party'] } as unknown as Scenario]);
    expect(report!.allowed_by).toEqual(['first_party_origins: https://analytics.example']);
  });
  test('without it, the same request fails, and nothing is marked as allowed', () => {
    const seen = facts();
    seen.pages.push(page);
    seen.requests.push(analytics);
    expect(check('callback.no_third_party').evaluate(seen)).toMatchObject({ status: 'fail' });
    const [report] = evaluateChecks(seen, [check('callback.no_third_party')], [{ id: 'landing', feeds: ['callback.no_third_party'] } as unknown as Scenario]);
    expect(report!.allowed_by).toBeUndefined();
  });
});

describe('callback.cookie_flags', () => {
  const withCookie = (line: string, origin = AGENCY) => {
    const seen = new RunFacts(ConfigSchema.parse({}), { agency: origin, emulator: 'http://127.0.0.1:4010', callback: `${origin}/callback` }, '/tmp');
    seen.responses.push(response({ url: `${origin}/callback`, setCookies: [line] }));
    return check('callback.cookie_flags').evaluate(seen);
  };
  test('no cookie set (or only deleted): no verdict', () => {
    expect(check('callback.cookie_flags').evaluate(facts())).toBeUndefined();
    expect(withCookie('sid=; Max-Age=0; Path=/')).toBeUndefined();
  });
  test('HttpOnly, SameSite=Lax and Secure pass; without Secure it is a warning on loopback http and a failure elsewhere', () => {
    expect(withCookie('sid=1; HttpOnly; SameSite=Lax; Secure; Path=/')!.status).toBe('pass');
    expect(withCookie('sid=1; HttpOnly; SameSite=Lax; Path=/')!.status).toBe('warn');
    expect(withCookie('sid=1; HttpOnly; SameSite=Lax; Path=/', 'http://agency.test')).toMatchObject({ status: 'fail', reason: 'sid is not Secure' });
    expect(withCookie('sid=1; SameSite=Lax; Secure')).toMatchObject({ status: 'fail', reason: expect.stringContaining('no HttpOnly') });
    expect(withCookie('sid=1; HttpOnly; SameSite=None; Secure')).toMatchObject({ status: 'fail', reason: 'sid has SameSite=none, not Lax' });
  });
  test('Secure is required over https on any host, and over http off loopback', () => {
    expect([secureCookieRequired('https://127.0.0.1:3000'), secureCookieRequired('http://agency.test'), secureCookieRequired('http://localhost:3000')]).toEqual([true, true, false]);
  });
});

describe('logs.params_redacted', () => {
  const AT = Date.parse('2026-11-28T14:55:20.000Z');
  const journeyWith = (): JourneyFacts => ({
    scenario: 'production-won', journey: 'main', pack: { code: 'P1', outcome: 'won' }, country: 'DE', email: 'h@example.test', consent: [], submissions: [],
    serviceRequest: 'request-value-123', issuedCallback: `${AGENCY}/callback?service_code=code-value-456&state=state-value-789`,
  });
  const withLog = (text: string | undefined) => {
    const folder = mkdtempSync(join(tmpdir(), 'callback-check-'));
    const file = join(folder, 'agency.log');
    if (text !== undefined) writeFileSync(file, text);
    const seen = facts({ agency_log: file });
    seen.agencyLog = readAgencyLog(file);
    seen.journeys.push(journeyWith());
    seen.pages.push({ scenario: 'production-won', journey: 'main', environment: 'production', at: AT, url: `${AGENCY}/entry`, status: 200, shows: [], links: [], title: '', text: '' });
    try {
      return check('logs.params_redacted').evaluate(seen)!;
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  };
  test('no journey values: no verdict; no readable log: inconclusive, naming agency_log', () => {
    expect(check('logs.params_redacted').evaluate(facts())).toBeUndefined();
    const seen = facts();
    seen.journeys.push(journeyWith());
    expect(check('logs.params_redacted').evaluate(seen)).toMatchObject({ status: 'inconclusive' });
    expect(withLog(undefined)).toMatchObject({ status: 'inconclusive', reason: expect.stringContaining('cannot be read') });
  });
  test('a log of this run without the values passes; one holding the state fails, naming its line and not the value', () => {
    expect(withLog(`{"time":${AT + 50},"url":"/callback?service_code=[redacted]"}\n`)).toMatchObject({ status: 'pass', reason: expect.stringContaining('1 of whose 1 lines were written during this run') });
    // The log is the agency's own account (issue 48 item 6): the pass says so, beside the check.
    expect(withLog(`{"time":${AT + 50},"url":"/callback"}\n`).reason).toContain("the log is the agency's own claim (one written with the values cut out passes too)");
    const leaked = withLog('{"msg":"start"}\n{"url":"/callback?state=state-value-789"}\n');
    expect(leaked).toMatchObject({ status: 'fail', reason: '1 of 3 journey values appear in the agency\'s log' });
    expect(JSON.stringify(leaked.evidence)).toContain('on line 2');
    expect(JSON.stringify(leaked.evidence)).not.toContain('state-value-789');
  });
  test('an empty log, or one with no line of this run, proves nothing: inconclusive, saying why (issue 42 item 4: an agency logging service_code elsewhere)', () => {
    expect(withLog('')).toMatchObject({ status: 'inconclusive', reason: expect.stringContaining('is empty, so it shows none of this run\'s requests') });
    expect(withLog('\n\n')).toMatchObject({ status: 'inconclusive', reason: expect.stringContaining('is empty') });
    const yesterday = withLog(`{"time":${AT - 86_400_000},"url":"/callback?service_code=[redacted]"}\n127.0.0.1 - - [27/Nov/2026:14:55:20 +0000] "GET /callback HTTP/1.1" 303 0\n`);
    expect(yesterday).toMatchObject({ status: 'inconclusive', reason: expect.stringContaining('none of the 2 lines of the agency log'), configure: expect.stringContaining('a time on each line') });
    expect(withLog('GET /callback?service_code=[redacted] 303\n')).toMatchObject({ status: 'inconclusive' });
  });
  test.for([
    ['pino, epoch milliseconds', `{"level":30,"time":${AT + 1000},"msg":"request"}`],
    ['epoch seconds with a fraction', `ts=${(AT + 1000) / 1000} GET /callback 303`],
    ['ISO 8601 in UTC', '2026-11-28T14:55:21.120Z INFO GET /callback'],
    ['ISO 8601 with an offset', '2026-11-28T15:55:21+01:00 GET /callback'],
    ['Common Log Format', '127.0.0.1 - - [28/Nov/2026:15:55:21 +0100] "GET /callback HTTP/1.1" 303 0'],
    ['a time without a zone, read as UTC', '[2026-11-28 14:55:21,120] INFO werkzeug: GET /callback'],
  ])('a line of this run is recognised by its time: %s', ([, line]) => {
    expect(withLog(`${line}\n`).status).toBe('pass');
  });
});
