/**
 * Issue 14's attack, replayed: every hostile request the outside attack used to find defects 1 to
 * 7, sent in random orders against one emulator, with the whole database diffed (every row of
 * every table) around each request. A refused request changes nothing stored but the interaction
 * log, and each defect's request gets its documented answer: never a 500, never a hang.
 * (The fuzz files send generated requests by the thousand and watch writes with triggers; this
 * pass compares contents, request by request. A body that never arrives is body-limits.test.ts's.)
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { snapshotTables } from '../../emulator/store/snapshot.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { csrfOf } from '../journey/support.js';
import { type TestWorld, VERIFIER, issueCodeFor, testWorld } from '../world.js';
import { checkAnswer } from './support/check.js';
import { FUZZ_TEST_TIMEOUT_MS, type FuzzServer, assertProperty, expectNoFailures, startFuzzServer } from './support/fuzz.js';
import type { FuzzAnswer, FuzzRequest } from './support/request.js';
import { JSON_TYPE, formPayload, payload } from './support/hostile.js';

/** Written whatever the answer: the interaction log records every experience call. */
const ALWAYS_WRITTEN = ['interactions'];
const PLANTED = 'p'.repeat(43);
const STATE = 'S'.repeat(43);
const CHALLENGE = 'C'.repeat(43);

let t: TestWorld;
let server: FuzzServer;
let signedInCookie: string;
let usedCode: string;

beforeAll(async () => {
  t = testWorld({ fixture: (fixture) => ({ ...fixture, history: { scans: 200 } }) });
  server = await startFuzzServer(t);
  const control = (path: string, body: object) => server.send({ method: 'POST', path: `/_emulator${path}`, body: payload(JSON.stringify(body), JSON_TYPE, 'setup') });
  // Endpoints up to the cap, so that one more is refused (defect 4).
  for (let i = 0; i < 100; i++) expect((await control('/webhooks', { url: `https://hooks.example/${i}` })).status).toBe(201);
  // A signed-in browser, for the journey's pages (defect 7).
  const signIn = await server.send({ method: 'GET', path: '/sign-in' });
  const cookie = [signIn.headers['set-cookie']].flat().map((line) => line!.split(';')[0]).join('; ');
  const signedIn = await server.send({ method: 'POST', path: '/sign-in', headers: { cookie }, body: formPayload({ csrf: csrfOf(signIn.text), collector_id: String(t.env.collectors[0]!.id), next: '/promotions' }) });
  expect(signedIn.status).toBe(303);
  signedInCookie = [cookie, ...[signedIn.headers['set-cookie']].flat().map((line) => line!.split(';')[0])].join('; ');
  // A code spent by an exchange with the wrong verifier (defect 7).
  usedCode = issueCodeFor(t);
  const failed = await server.send({ method: 'POST', path: '/api/experience/v1/sessions', headers: { authorization: `Bearer ${t.env.production_key}` }, body: payload(JSON.stringify({ authorization_code: usedCode, code_verifier: `${VERIFIER}-wrong` }), JSON_TYPE, 'setup') });
  expect(failed.status).toBe(400);
});

afterAll(async () => {
  await server?.close();
});

/** Every table's rows, hashed: what "nothing stored changed" compares. */
function digest(): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshotTables(t.world.db)).map(([table, rows]) => [table, createHash('sha256').update(rows.join('\n')).digest('hex')]));
}

function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table] && !ALWAYS_WRITTEN.includes(table));
}

interface Attack {
  defect: number;
  name: string;
  /** A request through the HTTP client, or raw bytes on a socket. */
  request: () => FuzzRequest | string;
  /** The status (or statuses) it must get. */
  status: number | number[];
  error?: string;
}

const experienceKey = () => ({ authorization: `Bearer ${t.env.sandbox_key}` });
const reportingToken = () => ({ authorization: `Bearer ${t.env.reporting_token}` });
const json = (body: unknown, type = JSON_TYPE) => payload(JSON.stringify(body), type, 'attack');

const ATTACKS: Attack[] = [
  { defect: 1, name: 'clock advanced by 100000000d', request: () => ({ method: 'POST', path: '/_emulator/clock', body: json({ advance: '100000000d' }) }), status: 400, error: 'invalid_request' },
  { defect: 1, name: 'clock frozen past 9999-01-01', request: () => ({ method: 'POST', path: '/_emulator/clock', body: json({ freeze: '9999-12-31T00:00:00Z' }) }), status: 400, error: 'invalid_request' },
  { defect: 1, name: 'clock frozen before 2000', request: () => ({ method: 'POST', path: '/_emulator/clock', body: json({ freeze: '1970-01-01T00:00:00Z' }) }), status: 400, error: 'invalid_request' },
  {
    defect: 2, name: 'secrets nested in an exchange body',
    request: () => ({ method: 'POST', path: '/api/experience/v1/sessions', headers: { authorization: `Bearer ${t.env.production_key}` }, body: json({ state: STATE, nested: { code_verifier: VERIFIER }, wrapped: [t.env.reporting_token] }) }),
    status: 400, error: 'invalid_request',
  },
  {
    defect: 3, name: 'dashboard revoke with a planted promo_csrf',
    request: () => ({ method: 'POST', path: '/console/keys/2/revoke', headers: { cookie: `promo_csrf=${PLANTED}`, origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-site' }, body: formPayload({ csrf: PLANTED }) }),
    status: 403,
  },
  { defect: 3, name: 'dashboard pause with a planted promo_csrf and no Origin', request: () => ({ method: 'POST', path: '/console/pause', headers: { cookie: `promo_csrf=${PLANTED}` }, body: formPayload({ csrf: PLANTED }) }), status: 403 },
  { defect: 3, name: 'dashboard create key from another port', request: () => ({ method: 'POST', path: '/console/keys', headers: { cookie: `promo_csrf=${PLANTED}`, origin: 'http://localhost:3000' }, body: formPayload({ csrf: PLANTED, environment: 'production' }) }), status: 403 },
  { defect: 3, name: 'dashboard approve from another port', request: () => ({ method: 'POST', path: '/console/approve', headers: { cookie: `promo_csrf=${PLANTED}`, 'sec-fetch-site': 'same-site' }, body: formPayload({ csrf: PLANTED }) }), status: 403 },
  { defect: 4, name: 'webhook endpoint 101', request: () => ({ method: 'POST', path: '/_emulator/webhooks', body: json({ url: 'https://hooks.example/one-more' }) }), status: 422, error: 'limit_reached' },
  { defect: 4, name: 'sink as endpoint 101', request: () => ({ method: 'POST', path: '/_emulator/sinks', body: json({ name: 'one-more' }) }), status: 422, error: 'limit_reached' },
  {
    defect: 6, name: 'unauthenticated exchange announcing 10 GB',
    request: () => `POST /api/experience/v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${10 * 1024 ** 3}\r\n\r\n`,
    status: 401, error: 'invalid_key',
  },
  {
    defect: 6, name: 'authenticated exchange announcing 10 GB',
    request: () => `POST /api/experience/v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.env.sandbox_key}\r\nContent-Type: application/json\r\nContent-Length: ${10 * 1024 ** 3}\r\n\r\n`,
    status: 413, error: 'payload_too_large',
  },
  {
    defect: 6, name: 'SKU body announcing 10 GB',
    request: () => `POST /api/v1/brands/alpenmilch/skus HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.env.reporting_token}\r\nContent-Type: application/json\r\nContent-Length: ${10 * 1024 ** 3}\r\n\r\n`,
    status: 413, error: 'payload_too_large',
  },
  ...['/api/experience/v1/campaign', '/api/v1/brands', '/_emulator/reset', '/console/approve', '/'].map((path): Attack => ({
    defect: 7, name: `OPTIONS ${path}`, request: () => ({ method: 'OPTIONS', path, headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } }), status: 404, error: 'not_found',
  })),
  { defect: 7, name: 'HEAD of a pack link', request: () => ({ method: 'HEAD', path: `/q/${t.env.packs[0]!.code}`, headers: { cookie: signedInCookie } }), status: 200 },
  {
    defect: 7, name: 'a request_token of 600 characters',
    request: () => ({ method: 'GET', path: `/authorize?${new URLSearchParams({ request_token: 'r'.repeat(600), state: STATE, code_challenge: CHALLENGE, code_challenge_method: 'S256' })}`, headers: { cookie: signedInCookie } }),
    status: 400,
  },
  {
    defect: 7, name: 'a retry after a wrong verifier',
    request: () => ({ method: 'POST', path: '/api/experience/v1/sessions', headers: { authorization: `Bearer ${t.env.production_key}` }, body: json({ authorization_code: usedCode, code_verifier: VERIFIER }) }),
    status: 400, error: 'invalid_grant',
  },
  { defect: 7, name: 'a UTF-16 body', request: () => ({ method: 'POST', path: '/api/experience/v1/sessions', headers: experienceKey(), body: payload(Buffer.from('{"scenario":"won"}', 'utf16le'), 'application/json; charset=utf-16', 'utf-16') }), status: 415, error: 'unsupported_media_type' },
  { defect: 7, name: 'a latin1 body', request: () => ({ method: 'POST', path: '/api/v1/brands/alpenmilch/skus', headers: reportingToken(), body: payload(Buffer.from('{"name":"X","prefix":"AM-X"}', 'latin1'), 'application/json; charset=latin1', 'latin1') }), status: 415, error: 'unsupported_media_type' },
  { defect: 7, name: 'a webhook to the metadata address', request: () => ({ method: 'POST', path: '/_emulator/webhooks', body: json({ url: 'http://169.254.169.254/latest/meta-data/' }) }), status: [400, 422] },
  { defect: 7, name: 'a webhook to an IPv6 link-local address', request: () => ({ method: 'POST', path: '/_emulator/webhooks', body: json({ url: 'http://[fe80::1]/hook' }) }), status: [400, 422] },
];

/** Sends the attack, checks its answer as every fuzz answer is checked, and returns it. */
async function launch(attack: Attack): Promise<FuzzAnswer> {
  const request = attack.request();
  if (typeof request === 'string') {
    const text = await server.raw(request);
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
    return { status, headers: {}, text: text.slice(text.indexOf('\r\n\r\n') + 4) };
  }
  const answer = await server.send(request);
  checkAnswer(request, answer);
  return answer;
}

it('answers each attack of the issue as documented, and a refused one changes no row of any table', async () => {
  await assertProperty(
    fc.asyncProperty(fc.shuffledSubarray(ATTACKS, { minLength: 1 }), async (attacks) => {
      for (const attack of attacks) {
        const before = digest();
        const answer = await launch(attack);
        await expectNoFailures(server);
        const where = `defect ${attack.defect}, ${attack.name}: ${answer.status} ${answer.text.slice(0, 200)}`;
        expect([attack.status].flat(), where).toContain(answer.status);
        if (attack.error) expect((JSON.parse(answer.text) as { error?: string }).error, where).toBe(attack.error);
        expect(changedTables(before, digest()), `stored changes after ${where}`).toEqual([]);
        expect(await server.health(), `health after ${where}`).toBe(200);
      }
    }),
    12,
  );
}, FUZZ_TEST_TIMEOUT_MS);
