/**
 * Fuzzing below the HTTP client (issue 7): request lines, header lines and body framing that no
 * client library would send, written on raw sockets to every area of the emulator. Node's parser
 * refuses most of it before the app; either way the answer is never 5xx, the connection is
 * answered or closed within the deadline, nothing is stored, and the emulator keeps serving.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testWorld } from '../world.js';
import { checkRawAnswer } from './support/check.js';
import { FUZZ_TEST_TIMEOUT_MS, type FuzzServer, assertProperty, expectBudgetMet, expectNoFailures, startFuzzServer } from './support/fuzz.js';

let server: FuzzServer;

beforeAll(async () => {
  server = await startFuzzServer(testWorld());
});

afterAll(async () => {
  await server?.close();
});

const TARGETS = ['/api/experience/v1/sessions', '/api/experience/v1/session/entry', '/api/v1/brands/alpenmilch/skus', '/_emulator/clock', '/_emulator/console/keys', '/sign-in', '/q/AM-CHO-260412-XQ3FN', '/'];

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST') },
  { weight: 1, arbitrary: fc.constantFrom('get', 'FOO', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT', 'PRI', 'G ET', 'GET\t', `${'M'.repeat(200)}`, '') },
);

const target = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...TARGETS) },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constantFrom(...TARGETS), fc.constantFrom('?a=\u00ff', '/\u00e9\u0000', ' x', '#frag', '?x=%', '/..%2f..', '\u007f', `?${'q'.repeat(20_000)}`, '//', '/./')).map(([path, suffix]) => path + suffix),
  },
  { weight: 1, arbitrary: fc.constantFrom('*', 'http://evil.example/api/v1/brands', 'evil.example:80', '', '\\', '%2F_emulator%2Fhealth', '/%00') },
);

const version = fc.oneof({ weight: 6, arbitrary: fc.constant('HTTP/1.1') }, { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'http/1.1', 'HTTP/1.1x', 'HTTP/9.9', '') });

const WELL_FORMED_HEADERS = [
  'Host: evil.example', 'Content-Type: application/json', 'Content-Type: application/x-www-form-urlencoded', 'Cookie: promo_session=\u00ff\u00fe', 'Expect: 100-continue',
  'Expect: 417-nope', 'Upgrade: websocket', 'Connection: Upgrade', 'Content-Encoding: gzip', 'X-Forwarded-For: 8.8.8.8', 'Accept: text/html', 'Authorization: Bearer x',
];
const MALFORMED_HEADERS = [
  'Host:', 'Host: a\u0000b', 'Authorization: Bearer \u0001\u0002', 'X-Service-Session: a\u0000b', 'NoColonHere', ' Folded: continuation', 'Bad Name: x', 'Bad\u0000Name: x',
  ': empty name', `X-Long: ${'l'.repeat(17_000)}`, 'Transfer-Encoding: gzip', 'Transfer-Encoding: chunked, identity',
];

/** Header lines, odd but well-formed, or malformed, without their line ending. */
const headerLine = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...WELL_FORMED_HEADERS) },
  { weight: 1, arbitrary: fc.constantFrom(...MALFORMED_HEADERS) },
  { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((code) => String.fromCharCode(code)), maxLength: 80 }).map((text) => `X-Fuzz: ${text.replace(/[\r\n]/g, '')}`) },
);

/** The body and the headers that frame it, correct or contradictory. */
const framing = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ headers: [] as string[], body: '' }) },
  { weight: 3, arbitrary: fc.constantFrom('{}', '{"scenario":"won"}', 'a=1').map((body) => ({ headers: [`Content-Length: ${body.length}`], body })) },
  { weight: 1, arbitrary: fc.constantFrom('abc', '-1', '1e3', '99999999999999999999', ' 2', '2, 3', '0x10').map((length) => ({ headers: [`Content-Length: ${length}`], body: '{}' })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { headers: ['Content-Length: 2', 'Content-Length: 3'], body: '{}' },
      { headers: ['Content-Length: 200'], body: '{"short":' },
      { headers: ['Content-Length: 2', 'Transfer-Encoding: chunked'], body: '2\r\n{}\r\n0\r\n\r\n' },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('2\r\n{}\r\n0\r\n\r\n', 'zz\r\n{}\r\n0\r\n\r\n', '2;ext="\u0000"\r\n{}\r\n0\r\n\r\n', '2\r\n{}0\r\n\r\n', `${'f'.repeat(20)}\r\n{}\r\n`, '2\r\n{}\r\n0\r\nTrailer: x\r\n\r\n', '2\r\n{}')
    .map((body) => ({ headers: ['Transfer-Encoding: chunked'], body })) },
);

const rawRequest = fc
  .record({
    method, target, version, framing,
    headers: fc.array(headerLine, { maxLength: 3 }),
    eol: fc.constantFrom('\r\n', '\r\n', '\r\n', '\r\n', '\r\n', '\n'),
    /** Sometimes the request stops short, as if the client vanished. */
    cut: fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat() }),
    pipelined: fc.boolean(),
  })
  .map(({ method: verb, target: path, version: http, framing: frame, headers, eol, cut, pipelined }) => {
    const head = [`${verb} ${path} ${http}`.trimEnd(), 'Host: 127.0.0.1', ...headers, ...frame.headers].join(eol);
    const request = `${head}${eol}${eol}${frame.body}${pipelined ? `GET /_emulator/health HTTP/1.1${eol}Host: x${eol}${eol}` : ''}`;
    return cut === null ? request : request.slice(0, cut % (request.length + 1));
  });

it('answers malformed HTTP on raw sockets with 4xx or a closed connection, stores nothing, and keeps serving', async () => {
  await assertProperty(
    fc.asyncProperty(rawRequest, async (request) => {
      server.changedTables();
      const answer = await server.raw(Buffer.from(request, 'latin1'));
      await expectNoFailures(server);
      checkRawAnswer(request, answer, server.changedTables());
      expect(await server.health()).toBe(200);
    }),
    400,
  );
}, FUZZ_TEST_TIMEOUT_MS);

it('sent at least its share of the fuzz budget', () => {
  expectBudgetMet('http', server);
});
