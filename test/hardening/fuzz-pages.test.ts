/**
 * Fuzzing the journey pages and the brand's dashboard (issue 7): hostile paths, queries, cookies,
 * CSRF values and form bodies, checked by support/check.ts. The world is approved, so scans route
 * to the agency; a signed-in browser session and fresh request tokens are minted as a run needs
 * them, since successful sign-ins, sign-outs and authorizations use them up.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, it } from 'vitest';
import { s256 } from '../../emulator/domain/pkce.js';
import { collectorOfBrowserSession, createBrowserSession } from '../../emulator/store/browser-sessions.js';
import { issueRequestToken } from '../../emulator/store/request-tokens.js';
import { findUnitByCode } from '../../emulator/store/units.js';
import { CALLBACK, approvedWorld, collectorId } from '../journey/support.js';
import { type TestWorld, VERIFIER } from '../world.js';
import { FUZZ_TEST_TIMEOUT_MS, type FuzzServer, exchange, expectBudgetMet, fuzz, startFuzzServer, storedValues } from './support/fuzz.js';
import type { FuzzRequest } from './support/request.js';
import {
  type Generated, type HeaderMap, type Payload, abusiveHeaders, anyMethod, formEncoding, formPayload, formValue, hostileQuery, hostileText, pathSegment,
} from './support/hostile.js';

const STATE = 'S'.repeat(20) + '_state-0123456789abcdef';
const CHALLENGE = s256(VERIFIER);

let t: TestWorld;
let server: FuzzServer;
let anna: number;
let signedIn: string;
let packs: { production: string[]; hosted: string[]; recalled: string[] };

beforeAll(async () => {
  t = await approvedWorld();
  server = await startFuzzServer(t);
  anna = collectorId(t, 'anna.weber@example.test');
  signedIn = createBrowserSession(t.world.db, anna, t.world.clock.now());
  packs = { production: t.env.packs.map((pack) => pack.code), hosted: [...t.env.test_packs, ...t.env.preview_packs], recalled: t.env.recalled_packs };
  // A hosted page opens only after its collector scanned the pack.
  for (const code of packs.hosted) await exchange(server, { method: 'GET', path: `/q/${code}`, headers: { cookie: `promo_session=${signedIn}` } });
});

afterAll(async () => {
  await server?.close();
});

/** A browser session for Anna that still works: fuzzed sign-ins and sign-outs end the one before. */
function liveSession(): string {
  if (collectorOfBrowserSession(t.world.db, signedIn, t.world.clock.now()) === undefined) signedIn = createBrowserSession(t.world.db, anna, t.world.clock.now());
  return signedIn;
}

function freshRequestToken(): string {
  const unit = findUnitByCode(t.world.db, packs.production[0]!)!.id;
  return issueRequestToken(t.world.db, t.world.seed, { promotionId: t.env.promotion_id, collectorId: anna, unitId: unit, country: 'DE', callbackUrl: CALLBACK, now: t.world.clock.now() });
}

type CsrfMode = 'valid' | 'mismatch' | 'no-cookie' | 'no-field' | 'malformed';

/** Cookies and the CSRF pair a run sends, named here and minted when the request is built. */
const browser = fc.record({
  session: fc.oneof({ weight: 4, arbitrary: fc.constant('live') }, { weight: 1, arbitrary: fc.constant('none') }, { weight: 1, arbitrary: hostileText.map(encodeURIComponentSafe) }),
  csrf: fc.oneof({ weight: 3, arbitrary: fc.constant<CsrfMode>('valid') }, { weight: 1, arbitrary: fc.constantFrom<CsrfMode>('mismatch', 'no-cookie', 'no-field', 'malformed') }),
});
type Browser = Generated<typeof browser>;

/** Request tokens for the authorize page: a fresh one, or text. */
const requestToken = fc.oneof({ weight: 3, arbitrary: fc.constant<'fresh'>('fresh') }, { weight: 1, arbitrary: hostileText });

interface PageCall {
  method: string;
  path: string;
  browser: Browser;
  headers: HeaderMap;
  /** Form fields, if the route takes a form; `request_token: 'fresh'` is minted when sent. */
  form: Record<string, string | string[] | undefined> | undefined;
  /** The form's content type, or a body sent instead of it. */
  encoding: string | Payload | undefined;
}

function encodeURIComponentSafe(text: string): string {
  return encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, ''));
}

function toRequest(call: PageCall): FuzzRequest {
  const csrf = randomBytes(32).toString('base64url');
  const cookies = [
    call.browser.session === 'live' ? `promo_session=${liveSession()}` : call.browser.session === 'none' ? undefined : `promo_session=${call.browser.session}`,
    ['valid', 'mismatch', 'no-field'].includes(call.browser.csrf) ? `promo_csrf=${csrf}` : call.browser.csrf === 'malformed' ? 'promo_csrf=%zz' : undefined,
    typeof call.headers.cookie === 'string' ? call.headers.cookie : undefined,
  ].filter(Boolean);
  const path = call.path.replace('request_token=fresh', () => `request_token=${freshRequestToken()}`);
  let body: Payload | undefined;
  if (call.form) {
    const field: Record<CsrfMode, string | undefined> = { valid: csrf, mismatch: `${csrf.slice(1)}x`, 'no-cookie': csrf, 'no-field': undefined, malformed: '%zz' };
    const fields: Record<string, string | string[] | undefined> = { ...call.form, csrf: field[call.browser.csrf] };
    if (fields.request_token === 'fresh') fields.request_token = freshRequestToken();
    body = typeof call.encoding === 'string' ? formPayload(fields, call.encoding) : call.encoding;
  }
  return { method: call.method, path, body, headers: { ...call.headers, ...(cookies.length > 0 ? { cookie: cookies.join('; ') } : {}) } };
}

const page = (method: string, path: fc.Arbitrary<string>, form?: fc.Arbitrary<Record<string, string | string[] | undefined>>): fc.Arbitrary<PageCall> =>
  fc.record({
    method: fc.oneof({ weight: 6, arbitrary: fc.constant(method) }, { weight: 1, arbitrary: anyMethod }),
    path,
    browser,
    headers: abusiveHeaders,
    form: form ?? fc.constant(undefined),
    encoding: form ? formEncoding : fc.constant(undefined),
  });

const packPath = (prefix: string) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...packs.production, ...packs.hosted, ...packs.recalled) },
    { weight: 1, arbitrary: fc.constantFrom(...packs.production).map((code) => code.toLowerCase()) },
    { weight: 2, arbitrary: pathSegment },
  ).map((code) => `${prefix}${code}`);

const authorizeQuery = fc
  .record({ request_token: requestToken, state: formValue(STATE), code_challenge: formValue(CHALLENGE), code_challenge_method: formValue('S256', 's256', 'plain') }, { requiredKeys: [] })
  .map((params) => `/authorize?${Object.entries(params).flatMap(([name, value]) => [value ?? []].flat().map((item) => `${name}=${item === 'fresh' ? 'fresh' : encodeURIComponentSafe(item)}`)).join('&')}`);

const authorizeForm = fc.record(
  { request_token: fc.oneof(fc.constant('fresh'), formValue()), state: formValue(STATE), code_challenge: formValue(CHALLENGE), code_challenge_method: formValue('S256') },
  { requiredKeys: [] },
);

const signInForm = () =>
  fc.record(
    {
      collector_id: formValue(...storedValues(t, 'collectors', 'id')),
      email: formValue('fuzz@example.test', 'anna.weber@example.test'),
      country: formValue('DE', 'CH', 'de'),
      city: formValue('Bern'),
      next: formValue('/rewards', '/q/AM-X', '//evil.example'),
    },
    { requiredKeys: [] },
  );

const playForm = fc.record({ accepted: formValue('yes', 'no'), age_confirmed: formValue('yes'), terms_version: formValue('2026-04', 'v1') }, { requiredKeys: [] });

const JOURNEY: Record<string, () => fc.Arbitrary<PageCall>> = {
  'GET /q/:code': () => page('GET', packPath('/q/')),
  'GET /sign-in': () => page('GET', hostileQuery(['next']).map((query) => `/sign-in${query}`)),
  'POST /sign-in': () => page('POST', fc.constant('/sign-in'), signInForm()),
  'POST /sign-out': () => page('POST', fc.constant('/sign-out'), fc.constant({})),
  'GET /play/:code': () => page('GET', packPath('/play/')),
  'POST /play/:code': () => page('POST', packPath('/play/'), playForm),
  'GET /authorize': () => page('GET', authorizeQuery),
  'POST /authorize': () => page('POST', fc.constant('/authorize'), authorizeForm),
  'GET /rewards': () => page('GET', hostileQuery(['page']).map((query) => `/rewards${query}`)),
  'GET /promotions': () => page('GET', hostileQuery(['brand']).map((query) => `/promotions${query}`)),
  'GET /console/live-log.js': () => page('GET', fc.constant('/console/live-log.js')),
};

for (const [name, calls] of Object.entries(JOURNEY)) {
  it(`answers hostile requests to ${name} with a page or a documented error, changing nothing when refused`, async () => {
    await fuzz(server, calls(), toRequest, 150);
  }, FUZZ_TEST_TIMEOUT_MS);
}

it('answers unknown page paths with the JSON 404', async () => {
  const paths = fc.array(pathSegment, { minLength: 1, maxLength: 4 }).map((segments) => `/${segments.join('/')}`);
  await fuzz(server, page('GET', paths), toRequest, 150);
}, FUZZ_TEST_TIMEOUT_MS);

const keyIds = () => fc.oneof(fc.constantFrom(...storedValues(t, 'agency_keys', 'id')), pathSegment);

const callbacksForm = fc.record(
  { production: formValue(CALLBACK, 'http://localhost:3000/cb', 'https://x.example/cb?q=1', 'javascript:alert(1)'), preview: formValue('', CALLBACK) },
  { requiredKeys: [] },
);

/** Last: valid dashboard forms pause routing, revoke keys and clear the approval the journey routes rely on. */
const DASHBOARD: Record<string, () => fc.Arbitrary<PageCall>> = {
  'GET /': () => page('GET', hostileQuery(['done']).map((query) => `/${query}`)),
  'POST /console/keys': () => page('POST', fc.constant('/console/keys'), fc.record({ environment: formValue('sandbox', 'production') }, { requiredKeys: [] })),
  'POST /console/keys/:id/rotate': () => page('POST', keyIds().map((id) => `/console/keys/${id}/rotate`), fc.constant({})),
  'POST /console/keys/:id/revoke': () => page('POST', keyIds().map((id) => `/console/keys/${id}/revoke`), fc.constant({})),
  'POST /console/callbacks': () => page('POST', fc.constant('/console/callbacks'), callbacksForm),
  'POST /console/approve': () => page('POST', fc.constant('/console/approve'), fc.constant({})),
  'POST /console/pause': () => page('POST', fc.constant('/console/pause'), fc.constant({})),
  'POST /console/resume': () => page('POST', fc.constant('/console/resume'), fc.constant({})),
};

for (const [name, calls] of Object.entries(DASHBOARD)) {
  it(`answers hostile requests to the dashboard's ${name} with a page or a documented error, changing nothing when refused`, async () => {
    await fuzz(server, calls(), toRequest, 100);
  }, FUZZ_TEST_TIMEOUT_MS);
}

it('sent at least its share of the fuzz budget', () => {
  expectBudgetMet('pages', server);
});
