/**
 * Fuzzing the control plane `/_emulator` and the console API (issue 7): every route with hostile
 * paths, queries, headers and bodies, checked by support/check.ts. Valid bodies may succeed and
 * change the world (a reset, a frozen clock, an armed fault): success may change state, refusal
 * may not. `POST /seed` gets invalid bodies only, as a valid one may ask for ten million scans.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, it } from 'vitest';
import { SANDBOX_SCENARIOS } from '../../emulator/use-cases/sandbox.js';
import { WEBHOOK_EVENTS } from '../../emulator/store/webhooks.js';
import { CALLBACK } from '../journey/support.js';
import { type TestWorld, testWorld } from '../world.js';
import { FUZZ_TEST_TIMEOUT_MS, type FuzzServer, exchange, expectBudgetMet, fuzz, startFuzzServer, storedValues } from './support/fuzz.js';
import type { FuzzRequest } from './support/request.js';
import {
  type FieldShape, type Generated, JSON_TYPE, abusiveHeaders, anyBody, anyMethod, bodyOnGet, hostileJsonBody, hostileQuery, hostileText, invalidBody, pathSegment, payload, wrongType,
} from './support/hostile.js';

let t: TestWorld;
let server: FuzzServer;

beforeAll(async () => {
  t = testWorld();
  server = await startFuzzServer(t);
  await exchange(server, { method: 'POST', path: '/_emulator/sinks', body: payload('{"name":"crm"}', JSON_TYPE, 'sink') });
});

afterAll(async () => {
  await server?.close();
});

const text = (...valid: string[]): fc.Arbitrary<unknown> => (valid.length > 0 ? fc.oneof(fc.constantFrom(...valid), hostileText) : hostileText);
const events = fc.subarray([...WEBHOOK_EVENTS]);
const status: FieldShape = { valid: fc.integer({ min: 200, max: 599 }), invalid: fc.oneof(wrongType('number'), fc.constantFrom(199, 600, 200.5)) };

const SHAPES = {
  clock: fc.oneof(
    anyBody({ advance: { valid: fc.constantFrom('31m', '2h', '1d', '100000000d'), invalid: fc.oneof(wrongType('string'), hostileText) } }),
    anyBody({ freeze: { valid: fc.constantFrom(true, '2026-11-21T10:00:00Z'), invalid: fc.oneof(hostileValueOtherThanTrue(), fc.constant('2026-11-21')) } }),
    anyBody({ unfreeze: { valid: fc.constant(true), invalid: hostileValueOtherThanTrue() } }),
    anyBody({ reset: { valid: fc.constant(true), invalid: hostileValueOtherThanTrue() } }),
  ),
  fault: anyBody({
    next: {
      valid: anyBody({
        path: { valid: fc.constantFrom('/session/entry', '/api/experience/v1/sessions'), invalid: fc.oneof(wrongType('string'), fc.constantFrom('', 'p'.repeat(201))) },
        status: { valid: fc.constantFrom(400, 429, 503), invalid: fc.oneof(wrongType('number'), fc.constantFrom(200, 600)) },
        error: { valid: fc.constantFrom('rate_limited', 'made_up'), invalid: fc.oneof(wrongType('string'), hostileText) },
        times: { valid: fc.integer({ min: 1, max: 3 }), invalid: fc.oneof(wrongType('number'), fc.constantFrom(0, 10_001)) },
        match: { valid: fc.record({ scenario: fc.constantFrom(...SANDBOX_SCENARIOS) }), invalid: wrongType('object') },
        drop: { valid: fc.constant(true), invalid: hostileValueOtherThanTrue() },
      }),
      invalid: wrongType('object'),
    },
  }),
  terms: anyBody({
    country: { valid: fc.constantFrom('CH', 'DE', null), invalid: fc.oneof(wrongType('string'), fc.constantFrom('ch', 'XX')) },
    terms: {
      valid: anyBody({
        version: { valid: text('2026-05'), invalid: wrongType('string') },
        text: { valid: text('Terms.'), invalid: fc.oneof(wrongType('string'), fc.constant('')) },
        minimum_age: { valid: fc.constantFrom(18, null), invalid: fc.oneof(wrongType('number'), fc.constantFrom(0, -1, 1.5)) },
      }),
      invalid: wrongType('object'),
    },
  }),
  settle: anyBody({
    pack: { valid: fc.constantFrom('AM-CHO-260412-8SCF4', 'AM-CHO-260412-UBACT'), invalid: fc.oneof(wrongType('string'), fc.constantFrom('', 'p'.repeat(65))) },
    outcome: { valid: fc.constantFrom('delivered', 'failed'), invalid: fc.oneof(wrongType('string'), hostileText) },
  }),
  webhook: anyBody({
    url: { valid: fc.constantFrom('https://hooks.example/in', 'http://127.0.0.1:9/in'), invalid: fc.oneof(wrongType('string'), fc.constantFrom('ftp://x', 'javascript:alert(1)', '//x', 'https://')) },
    events: { valid: events, invalid: fc.oneof(wrongType('object'), fc.constant([]), fc.constant(['scan.nope'])) },
  }),
  sink: anyBody({
    name: { valid: fc.constantFrom('crm', 'fuzz-sink'), invalid: fc.oneof(wrongType('string'), fc.constantFrom('', 'CRM', '-x', 'n'.repeat(64))) },
    events: { valid: events, invalid: fc.oneof(wrongType('object'), fc.constant(['scan.nope'])) },
    respond_with: status,
  }),
  sinkUpdate: anyBody({ respond_with: status }),
  seed: invalidBody({
    scans: { valid: fc.integer({ min: 1, max: 3 }), invalid: fc.oneof(wrongType('number'), fc.constantFrom(0, -1, 1.5, 10_000_001)) },
    webhooks: { valid: fc.boolean(), invalid: wrongType('boolean') },
  }),
  key: anyBody({ environment: { valid: fc.constantFrom('sandbox', 'production'), invalid: fc.oneof(wrongType('string'), hostileText) } }),
  callbacks: anyBody({
    production: { valid: fc.constantFrom(CALLBACK, 'http://localhost:3000/cb'), invalid: fc.oneof(wrongType('string'), hostileText, fc.constant(`https://x.example/${'p'.repeat(4100)}`)) },
    preview: { valid: fc.constantFrom(CALLBACK), invalid: fc.oneof(wrongType('string'), hostileText) },
  }),
  run: anyBody({
    pid: { valid: fc.constantFrom(1, 4242), invalid: fc.oneof(wrongType('number'), fc.constantFrom(-1, 1.5)) },
    host: { valid: fc.constantFrom('ci-runner', 'localhost'), invalid: fc.oneof(wrongType('string'), fc.constant('h'.repeat(256))) },
  }),
  none: fc.oneof(fc.constant({}), anyBody({})),
};

function hostileValueOtherThanTrue(): fc.Arbitrary<unknown> {
  return fc.oneof(wrongType('boolean'), fc.constant(false));
}

interface Route {
  method: 'GET' | 'POST';
  path: () => fc.Arbitrary<string>;
  query?: string[];
  body?: fc.Arbitrary<unknown>;
}

const fixed = (path: string) => () => fc.constant(path);
const withId = (template: string, real: () => string[]) => () =>
  fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...real(), '1') }, { weight: 1, arbitrary: pathSegment }).map((id) => template.replace(':id', id));
const column = (table: string, name: string) => () => storedValues(t, table, name);

const ROUTES: Record<string, Route> = {
  'GET /health': { method: 'GET', path: fixed('/health') },
  'GET /env': { method: 'GET', path: fixed('/env') },
  'GET /clock': { method: 'GET', path: fixed('/clock') },
  'POST /clock': { method: 'POST', path: fixed('/clock'), body: SHAPES.clock },
  'POST /reset': { method: 'POST', path: fixed('/reset'), body: SHAPES.none },
  'GET /interactions': { method: 'GET', path: fixed('/interactions'), query: ['after', 'limit'] },
  'GET /faults': { method: 'GET', path: fixed('/faults') },
  'POST /faults': { method: 'POST', path: fixed('/faults'), body: SHAPES.fault },
  'POST /faults/clear': { method: 'POST', path: fixed('/faults/clear'), body: SHAPES.none },
  'GET /observed': { method: 'GET', path: fixed('/observed'), query: ['after', 'pack', 'limit'] },
  'GET /terms': { method: 'GET', path: fixed('/terms') },
  'POST /terms': { method: 'POST', path: fixed('/terms'), body: SHAPES.terms },
  'POST /deliveries/settle': { method: 'POST', path: fixed('/deliveries/settle'), body: SHAPES.settle },
  'GET /packs': { method: 'GET', path: fixed('/packs'), query: ['per_outcome'] },
  'GET /secrets': { method: 'GET', path: fixed('/secrets'), query: ['after_session'] },
  'GET /webhooks': { method: 'GET', path: fixed('/webhooks') },
  'POST /webhooks': { method: 'POST', path: fixed('/webhooks'), body: SHAPES.webhook },
  'POST /webhooks/:id/remove': { method: 'POST', path: withId('/webhooks/:id/remove', column('webhook_endpoints', 'id')), body: SHAPES.none },
  'GET /deliveries': { method: 'GET', path: fixed('/deliveries'), query: ['endpoint_id', 'limit'] },
  'GET /deliveries/:id': { method: 'GET', path: withId('/deliveries/:id', column('webhook_deliveries', 'public_id')) },
  'POST /deliveries/:id/replay': { method: 'POST', path: withId('/deliveries/:id/replay', column('webhook_deliveries', 'public_id')), body: SHAPES.none },
  'GET /sinks': { method: 'GET', path: fixed('/sinks') },
  'POST /sinks': { method: 'POST', path: fixed('/sinks'), body: SHAPES.sink },
  'POST /sinks/:name': { method: 'POST', path: withId('/sinks/:id', () => ['crm']), body: SHAPES.sinkUpdate },
  'GET /sink': { method: 'GET', path: fixed('/sink') },
  'GET /sink/:name': { method: 'GET', path: withId('/sink/:id', () => ['crm']), query: ['limit'] },
  'POST /sink/:name': { method: 'POST', path: withId('/sink/:id', () => ['crm']), body: fc.jsonValue({ maxDepth: 3 }) },
  'POST /seed': { method: 'POST', path: fixed('/seed'), body: SHAPES.seed },
  'GET /console/': { method: 'GET', path: fixed('/console/') },
  'GET /console/keys': { method: 'GET', path: fixed('/console/keys') },
  'GET /console/checklist': { method: 'GET', path: fixed('/console/checklist') },
  'GET /console/log': { method: 'GET', path: fixed('/console/log'), query: ['after', 'limit'] },
  'POST /console/keys': { method: 'POST', path: fixed('/console/keys'), body: SHAPES.key },
  'POST /console/keys/:id/rotate': { method: 'POST', path: withId('/console/keys/:id/rotate', column('agency_keys', 'id')), body: SHAPES.none },
  'POST /console/keys/:id/revoke': { method: 'POST', path: withId('/console/keys/:id/revoke', column('agency_keys', 'id')), body: SHAPES.none },
  'POST /console/callbacks': { method: 'POST', path: fixed('/console/callbacks'), body: SHAPES.callbacks },
  'POST /console/approve': { method: 'POST', path: fixed('/console/approve'), body: SHAPES.none },
  'POST /console/pause': { method: 'POST', path: fixed('/console/pause'), body: SHAPES.none },
  'POST /console/resume': { method: 'POST', path: fixed('/console/resume'), body: SHAPES.none },
  'POST /console/harness-runs': { method: 'POST', path: fixed('/console/harness-runs'), body: SHAPES.run },
  'POST /console/harness-runs/:id/renew': { method: 'POST', path: withId('/console/harness-runs/:id/renew', () => []), body: SHAPES.none },
  'POST /console/harness-runs/:id/end': { method: 'POST', path: withId('/console/harness-runs/:id/end', () => []), body: SHAPES.none },
};

function calls(route: Route) {
  return fc.record({
    method: fc.oneof({ weight: 6, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: anyMethod }),
    path: route.path(),
    query: route.query ? fc.oneof(fc.constant(''), hostileQuery(route.query)) : fc.constant(''),
    headers: abusiveHeaders,
    body: route.method === 'POST' ? hostileJsonBody(route.body ?? SHAPES.none) : bodyOnGet,
  });
}

function toRequest(call: Generated<ReturnType<typeof calls>>): FuzzRequest {
  return { method: call.method, path: `/_emulator${call.path}${call.query}`, headers: call.headers, body: call.body };
}

for (const [name, route] of Object.entries(ROUTES)) {
  it(`answers hostile calls of ${name} with documented errors and no stored change when refused`, async () => {
    await fuzz(server, calls(route), toRequest, 34);
  }, FUZZ_TEST_TIMEOUT_MS);
}

it('answers unknown control plane paths with JSON errors', async () => {
  const paths = fc.array(pathSegment, { minLength: 1, maxLength: 4 }).map((segments) => `/_emulator/${segments.join('/')}`);
  await fuzz(server, fc.record({ method: anyMethod, path: paths }), (call) => ({ method: call.method, path: call.path }), 80);
}, FUZZ_TEST_TIMEOUT_MS);

it('sent at least its share of the fuzz budget', () => {
  expectBudgetMet('control', server);
});
