/**
 * Fuzzing the reporting API (issue 7): hostile tokens, slugs, ids, query parameters, headers and
 * bodies on every endpoint, checked by support/check.ts. Batch bodies are invalid by
 * construction: a created batch generates its codes in the background, and those writes would
 * land in whichever request the journal watches next.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, it } from 'vitest';
import { RIVAL_TOKEN, addRivalCompany } from '../reporting/reporting.js';
import { type TestWorld, testWorld } from '../world.js';
import { FUZZ_TEST_TIMEOUT_MS, type FuzzServer, expectBudgetMet, fuzz, startFuzzServer, storedValues } from './support/fuzz.js';
import type { FuzzRequest } from './support/request.js';
import {
  type FieldShape, type Generated, type Payload, abusiveHeaders, anyBody, anyMethod, authorizationFor, bodyOnGet, hostileJsonBody, hostileQuery, hostileText, invalidBody, pathSegment, wrongType,
} from './support/hostile.js';

const API = '/api/v1';

let t: TestWorld;
let server: FuzzServer;
let ids: { scans: string[]; collectors: string[]; skus: string[]; batches: string[] };

beforeAll(async () => {
  t = testWorld();
  addRivalCompany(t);
  server = await startFuzzServer(t);
  ids = {
    scans: storedValues(t, 'scans', 'id', (scan) => scan.tester === 0).sort((a, b) => Number(a) - Number(b)).slice(0, 20),
    collectors: storedValues(t, 'collectors', 'id'),
    skus: storedValues(t, 'skus', 'id'),
    batches: storedValues(t, 'batches', 'id'),
  };
});

afterAll(async () => {
  await server?.close();
});

const skuShape: Record<string, FieldShape> = {
  name: { valid: fc.oneof(hostileText, fc.constant('Fuzz Bar 100g')), invalid: fc.oneof(wrongType('string'), fc.constantFrom('', '   ', 'n'.repeat(121))) },
  prefix: { valid: fc.constantFrom('AM-FUZ', 'AM-CHO', 'NK-DRK', 'AM-F-U-Z'), invalid: fc.oneof(wrongType('string'), hostileText, fc.constantFrom('am-fuz', 'AM', 'AM-', 'AM-TOOLONGPREFIX')) },
};

const batchShape: Record<string, FieldShape> = {
  quantity: { valid: fc.integer({ min: 1, max: 1_000_000 }), invalid: fc.oneof(wrongType('number'), fc.constantFrom(0, -1, 1.5, 1_000_001, 2 ** 53, Number.MAX_VALUE)) },
  purpose: { valid: fc.oneof(hostileText, fc.constant('Autumn run')), invalid: fc.oneof(wrongType('string'), fc.constantFrom('', ' ', 'p'.repeat(201))) },
};

const QUERY_VALUES = ['2026-04-01', '2026-04-01T00:00:00Z', '2026-04-01T00:00:00+02:00', '2026-13-40', '2026-04-01T00:00:00', '1000', '1001', '0', '100', 'claimed', 'redeemed'];

interface Route {
  method: string;
  /** The path, built from a brand slug and ids: real ones mostly, hostile ones sometimes. */
  path: (pieces: { slug: fc.Arbitrary<string>; id: (real: string[]) => fc.Arbitrary<string> }) => fc.Arbitrary<string>;
  query?: readonly string[];
  body?: fc.Arbitrary<Payload | undefined>;
}

const PERIOD = ['since', 'until', 'limit', 'offset'] as const;

const ROUTES: Record<string, Route> = {
  'GET /brands': { method: 'GET', path: () => fc.constant('/brands') },
  'GET /brands/:slug/scans': { method: 'GET', path: ({ slug }) => slug.map((s) => `/brands/${s}/scans`), query: PERIOD },
  'GET /brands/:slug/scans/:id': { method: 'GET', path: ({ slug, id }) => fc.tuple(slug, id(ids.scans)).map(([s, i]) => `/brands/${s}/scans/${i}`) },
  'GET /brands/:slug/collectors': { method: 'GET', path: ({ slug }) => slug.map((s) => `/brands/${s}/collectors`), query: ['limit', 'offset'] },
  'GET /brands/:slug/collectors/:id': { method: 'GET', path: ({ slug, id }) => fc.tuple(slug, id(ids.collectors)).map(([s, i]) => `/brands/${s}/collectors/${i}`) },
  'GET /brands/:slug/redemptions': { method: 'GET', path: ({ slug }) => slug.map((s) => `/brands/${s}/redemptions`), query: [...PERIOD, 'status'] },
  'GET /brands/:slug/skus': { method: 'GET', path: ({ slug }) => slug.map((s) => `/brands/${s}/skus`) },
  'POST /brands/:slug/skus': { method: 'POST', path: ({ slug }) => slug.map((s) => `/brands/${s}/skus`), body: hostileJsonBody(anyBody(skuShape)) },
  'POST /brands/:slug/skus/:id/batches': {
    method: 'POST', path: ({ slug, id }) => fc.tuple(slug, id(ids.skus)).map(([s, i]) => `/brands/${s}/skus/${i}/batches`), body: hostileJsonBody(invalidBody(batchShape)).filter(notBatchable),
  },
  'GET /brands/:slug/skus/:sku_id/batches/:id/download': {
    method: 'GET', path: ({ slug, id }) => fc.tuple(slug, id(ids.skus), id(ids.batches)).map(([s, sku, batch]) => `/brands/${s}/skus/${sku}/batches/${batch}/download`),
  },
};

/** Hostile bodies outside the batch schema can still happen to be valid JSON batches; those are left out. */
function notBatchable(body: Payload | undefined): boolean {
  if (!body) return true;
  try {
    const value = JSON.parse(body.bytes.toString('utf8')) as { quantity?: unknown; purpose?: unknown };
    return !(Number.isInteger(value?.quantity) && typeof value?.purpose === 'string' && Object.keys(value).length === 2);
  } catch {
    return true;
  }
}

function calls(route: Route) {
  const slug = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('alpenmilch', 'nordkakao') }, { weight: 1, arbitrary: fc.constantFrom('rival', 'ALPENMILCH', 'alpenmilch%00') }, { weight: 1, arbitrary: pathSegment });
  const id = (real: string[]) => fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...real) }, { weight: 1, arbitrary: pathSegment });
  return fc.record({
    method: fc.oneof({ weight: 5, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: anyMethod }),
    path: route.path({ slug, id }),
    query: route.query ? fc.oneof(fc.constant(''), hostileQuery(route.query, QUERY_VALUES)) : fc.constant(''),
    authorization: authorizationFor([t.env.reporting_token, RIVAL_TOKEN, t.env.sandbox_key!]),
    headers: abusiveHeaders,
    body: route.body ?? bodyOnGet,
  });
}

function toRequest(call: Generated<ReturnType<typeof calls>>): FuzzRequest {
  return {
    method: call.method, path: `${API}${call.path}${call.query}`, body: call.body,
    headers: { ...call.headers, ...(call.authorization ? { authorization: call.authorization } : {}) },
  };
}

for (const [name, route] of Object.entries(ROUTES)) {
  it(`answers hostile calls of ${name} with documented errors and no stored change`, async () => {
    await fuzz(server, calls(route), toRequest, 270);
  }, FUZZ_TEST_TIMEOUT_MS);
}

it('answers unknown paths and methods under the API with JSON errors', async () => {
  const paths = fc.array(pathSegment, { minLength: 1, maxLength: 5 }).map((segments) => `/${segments.join('/')}`);
  const unknown = fc.record({ method: anyMethod, path: paths, authorization: authorizationFor([t.env.reporting_token]) });
  await fuzz(server, unknown, (call) => ({ method: call.method, path: `${API}${call.path}`, headers: call.authorization ? { authorization: call.authorization } : {} }), 100);
}, FUZZ_TEST_TIMEOUT_MS);

it('sent at least its share of the fuzz budget', () => {
  expectBudgetMet('reporting', server);
});
