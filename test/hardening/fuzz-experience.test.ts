/**
 * Fuzzing the experience API (issue 7): hostile keys, sessions, headers and bodies on every
 * endpoint. Each answer is checked by support/check.ts; the limits are lifted so the fuzz
 * reaches validation instead of stopping at 429 after 60 calls on a frozen clock.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { revokeKey } from '../../emulator/use-cases/console/keys.js';
import { s256 } from '../../emulator/domain/pkce.js';
import { SANDBOX_SCENARIOS } from '../../emulator/use-cases/sandbox.js';
import { createAgencyKey } from '../../emulator/store/keys.js';
import { FROZEN_AT, type TestWorld, VERIFIER, issueCodeFor, productionSession, testWorld } from '../world.js';
import { FUZZ_TEST_TIMEOUT_MS, type FuzzServer, assertProperty, exchange, expectBudgetMet, fuzz, startFuzzServer } from './support/fuzz.js';
import type { FuzzRequest } from './support/request.js';
import {
  type FieldShape, type Generated, JSON_TYPE, abusiveHeaders, anyBody, anyMethod, authorizationFor, bodyOnGet, deepBody, hostileJsonBody, hostileQuery, hostileText, pathSegment, payload,
  tokenFor, wrongType,
} from './support/hostile.js';

const API = '/api/experience/v1';
const DAY = 86_400_000;

let t: TestWorld;
let server: FuzzServer;
let keys: string[];
let sessions: string[];
/** Session tokens with the key that exchanged them: what gets a request past authentication. */
let callers: Array<{ key: string; session: string }>;

beforeAll(async () => {
  t = testWorld({ config: { limits: { perKey: 1e9, perSession: 1e9, windowMs: 60_000 } } });
  server = await startFuzzServer(t);
  const revoked = createAgencyKey(t.world.db, t.world.seed, { promotionId: t.env.promotion_id, environment: 'sandbox', now: FROZEN_AT });
  revokeKey(t.world, revoked.id);
  const expired = createAgencyKey(t.world.db, t.world.seed, { promotionId: t.env.promotion_id, environment: 'production', now: FROZEN_AT - 91 * DAY });
  keys = [t.env.sandbox_key!, t.env.production_key!, revoked.secret, expired.secret, t.env.reporting_token];
  callers = [];
  for (const scenario of SANDBOX_SCENARIOS) {
    const res = await t.experience('post', '/sessions').send({ scenario });
    callers.push({ key: t.env.sandbox_key!, session: res.body.session_token as string });
  }
  const pending = t.env.packs.find((pack) => pack.outcome === 'pending')!.code;
  callers.push(
    { key: t.env.production_key!, session: await productionSession(t) },
    { key: t.env.production_key!, session: await productionSession(t, { packCode: pending, collectorEmail: 'lena.gruber@example.test' }) },
  );
  sessions = callers.map((caller) => caller.session);
});

afterAll(async () => {
  await server?.close();
});

const consentShape: Record<string, FieldShape> = {
  accepted: { valid: fc.boolean(), invalid: wrongType('boolean') },
  age_confirmed: { valid: fc.boolean(), invalid: wrongType('boolean') },
  terms_version: { valid: fc.oneof(hostileText, fc.constantFrom('2026-04', 'v1')), invalid: fc.oneof(wrongType('string'), fc.constant('t'.repeat(257))) },
};

const sessionBodies = fc.oneof(
  anyBody({ scenario: { valid: fc.constantFrom(...SANDBOX_SCENARIOS), invalid: fc.oneof(wrongType('string'), hostileText) } }),
  anyBody({
    authorization_code: { valid: hostileText.filter((text) => text.length > 0 && text.length <= 512), invalid: fc.oneof(wrongType('string'), fc.constant(''), fc.constant('c'.repeat(513))) },
    code_verifier: { valid: fc.oneof(hostileText, fc.constant(VERIFIER)), invalid: fc.oneof(wrongType('string'), fc.constant('')) },
  }),
);

const entryBodies = anyBody({ consent: { valid: anyBody(consentShape), invalid: wrongType('object') } });

const ROUTES = [
  { method: 'GET', path: '/campaign', body: undefined },
  { method: 'POST', path: '/sessions', body: sessionBodies },
  { method: 'POST', path: '/session/entry', body: entryBodies },
  { method: 'GET', path: '/session', body: undefined },
] as const;

function calls(route: (typeof ROUTES)[number]) {
  return fc.record({
    method: fc.oneof({ weight: 5, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: anyMethod }),
    path: fc.oneof({ weight: 5, arbitrary: fc.constant(route.path) }, { weight: 1, arbitrary: fc.constantFrom(`${route.path}/`, route.path.toUpperCase(), `${route.path}/..`, `${route.path}%2F`) }),
    query: fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: hostileQuery(['scenario', 'session', 'key']) }),
    caller: fc.oneof(
      fc.constantFrom(...callers).map(({ key, session }) => ({ authorization: `Bearer ${key}`, session })),
      fc.record({ authorization: authorizationFor(keys), session: tokenFor(sessions) }),
    ),
    headers: abusiveHeaders,
    body: route.body ? hostileJsonBody(route.body) : bodyOnGet,
  });
}

type Call = Generated<ReturnType<typeof calls>>;

function toRequest(call: Call): FuzzRequest {
  return {
    method: call.method, path: `${API}${call.path}${call.query}`, body: call.body,
    headers: { ...call.headers, ...(call.caller.authorization ? { authorization: call.caller.authorization } : {}), ...(call.caller.session ? { 'x-service-session': call.caller.session } : {}) },
  };
}

for (const route of ROUTES) {
  it(`answers hostile calls of ${route.method} ${route.path} with documented errors and no stored change`, async () => {
    await fuzz(server, calls(route), toRequest, 650);
  }, FUZZ_TEST_TIMEOUT_MS);
}

it('answers unknown paths and methods under the API with JSON errors', async () => {
  const paths = fc.array(pathSegment, { minLength: 1, maxLength: 4 }).map((segments) => `/${segments.join('/')}`);
  const unknown = fc.record({ method: anyMethod, path: paths, authorization: authorizationFor(keys), body: hostileJsonBody(fc.constant({})) });
  await fuzz(server, unknown, (call) => ({ method: call.method, path: `${API}${call.path}`, body: call.body, headers: call.authorization ? { authorization: call.authorization } : {} }), 250);
}, FUZZ_TEST_TIMEOUT_MS);

it("keeps the control plane's records of hostile calls readable", async () => {
  const READS = ['/_emulator/observed', '/_emulator/interactions', '/_emulator/console/log', '/_emulator/console/', '/_emulator/secrets?after_session=0'];
  const recorded = fc.tuple(calls(ROUTES[1]), fc.oneof(deepBody, hostileJsonBody(sessionBodies))).map(([call, body]) => ({ ...call, body }));
  await assertProperty(
    fc.asyncProperty(recorded, async (call) => {
      await exchange(server, toRequest(call));
      for (const read of READS) await exchange(server, { method: 'GET', path: read });
    }),
    60,
  );
}, FUZZ_TEST_TIMEOUT_MS);

it('refuses an exchange of a real code with a wrong verifier with 400', async () => {
  const verifiers = fc.oneof(hostileText, fc.constantFrom(VERIFIER.slice(1), `${VERIFIER}x`, VERIFIER.toUpperCase(), s256(VERIFIER), ` ${VERIFIER}`));
  await assertProperty(
    fc.asyncProperty(verifiers.filter((verifier) => verifier !== VERIFIER), async (verifier) => {
      const code = issueCodeFor(t);
      const answer = await exchange(server, {
        method: 'POST', path: `${API}/sessions`, headers: { authorization: `Bearer ${t.env.production_key}` },
        body: payload(JSON.stringify({ authorization_code: code, code_verifier: verifier }), JSON_TYPE, 'real code'),
      });
      expect(answer.status).toBe(400);
      expect(['invalid_grant', 'invalid_request']).toContain(JSON.parse(answer.text).error);
    }),
    150,
  );
}, FUZZ_TEST_TIMEOUT_MS);

it('sent at least its share of the fuzz budget', () => {
  expectBudgetMet('experience', server);
});
