/**
 * fast-check arbitraries for hostile requests: strings, JSON values and bodies, encodings and
 * headers that no well-behaved client sends. Bodies are `Payload`s, which print as a short
 * preview in a counterexample instead of 100 KB of text.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';

/** The type of the values an arbitrary generates. */
export type Generated<A> = A extends fc.Arbitrary<infer T> ? T : never;

/** Marks a fuzz string rendered into HTML; check.ts fails any page that shows it unescaped. */
export const XSS_TAG = '<fuzz-xss>';
export const XSS_ATTRIBUTE = '" fuzz-attr="1';

/**
 * Strings that break naive code. None spells an error class or a source path, so an answer that
 * echoes one cannot pass for a leaked stack trace.
 */
export const INJECTIONS = [
  "' OR '1'='1' --", '"; DROP TABLE entries; --', "1; DELETE FROM sessions", XSS_TAG, `x${XSS_ATTRIBUTE}`, `"><svg onload=x>${XSS_TAG}`,
  'javascript:alert(1)', '${7*7}', '{{7*7}}', '<%= 7*7 %>', '../../../../etc/passwd', '..%2f..%2fetc%2fpasswd', '%00', '\u0000', 'a\u0000b',
  '\r\nSet-Cookie: fuzz=1', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '\u{1F600}', '\uD800', '\uDFFF', '\u202Eevil',
  '\u200B', '\uFEFF', 'Ａ', '１２３', '-1', '0', '1e309', 'NaN', 'Infinity', 'null', 'undefined', 'true', '0x10', ' 1 ', '1.0', '01', '9'.repeat(40),
  '', ' ', 'AM-CHO-260412-XQ3FN', 'https://evil.example/', '//evil.example', '/\\evil.example', 'http://localhost/', '*', '%', '%zz', '%E0%A4%A',
] as const;

export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...INJECTIONS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 5000 }).map((length) => 'x'.repeat(length)) },
);

/** Printable Latin-1 only: what Node lets a client put in a header value or a path. */
export const headerText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...INJECTIONS.filter((text) => /^[\t\x20-\x7e\x80-\xff]*$/.test(text))),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((code) => code !== 0x7f).map((code) => String.fromCharCode(code)), maxLength: 60 }),
  fc.integer({ min: 1000, max: 4000 }).map((length) => 'h'.repeat(length)),
);

/** A path segment as it travels: percent-encoded hostile text, or raw encoding mistakes. */
export const pathSegment: fc.Arbitrary<string> = fc.oneof(
  hostileText.map((text) => encodeSegment(text)),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '%C0%AF', '%2F', '%00', '..', '.', '%2e%2e', ';x=1', '0', '-1', '1e3', '01', '1.5', '9007199254740993', '9'.repeat(30)),
);

/** encodeURIComponent, except lone surrogates, which it refuses: those go out as raw UTF-16 bytes. */
function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text).slice(0, 4000);
  } catch {
    return [...Buffer.from(text, 'utf16le')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('').slice(0, 4000);
  }
}

/** JSON values of every type, small enough to stringify. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1.5, 2 ** 53 + 1, Number.MAX_VALUE, -0, 1e21),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(hostileText, { maxLength: 4 }),
  fc.dictionary(hostileText, hostileText, { maxKeys: 4 }),
);

/** A value of any JSON type except the one named. */
export function wrongType(except: 'string' | 'number' | 'boolean' | 'object'): fc.Arbitrary<unknown> {
  return hostileValue.filter((value) => (except === 'object' ? value === null || typeof value !== 'object' || Array.isArray(value) : typeof value !== except));
}

/** A request body as bytes, with what it declares itself to be. */
export interface Payload {
  readonly contentType: string | undefined;
  readonly contentEncoding?: string;
  readonly bytes: Buffer;
  readonly note: string;
}

export function payload(bytes: Buffer | string, contentType: string | undefined, note: string, contentEncoding?: string): Payload {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  return {
    contentType, contentEncoding, bytes: buffer, note,
    [fc.toStringMethod]: () => `${note} [${contentType ?? 'no content-type'}${contentEncoding ? `, ${contentEncoding}` : ''}, ${buffer.length} B: ${JSON.stringify(buffer.subarray(0, 120).toString('latin1'))}]`,
  } as Payload;
}

export const JSON_TYPE = 'application/json';

/** A JSON value as a body, sometimes behind an odd but acceptable content type. */
export function jsonPayload(value: fc.Arbitrary<unknown>): fc.Arbitrary<Payload> {
  return fc
    .tuple(value, fc.constantFrom(JSON_TYPE, 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=UTF-8; x=1'))
    .map(([body, type]) => payload(JSON.stringify(body) ?? 'null', type, 'json'));
}

/** Nesting far deeper than any schema, still inside the 100 KB limit. */
export const deepBody = fc
  .tuple(fc.integer({ min: 500, max: 45_000 }), fc.constantFrom('array', 'object'))
  .map(([depth, kind]) => (kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : `${'{"consent":'.repeat(Math.min(depth, 7000))}1${'}'.repeat(Math.min(depth, 7000))}`))
  .map((text) => payload(text, JSON_TYPE, 'deep nesting'));

/** Bodies at and beyond the 100 KB limit, and wide ones under it. */
const bigBody = fc.oneof(
  fc.integer({ min: 100 * 1024 - 20, max: 1024 * 1024 }).map((size) => payload(`{"pad":"${'p'.repeat(size)}"}`, JSON_TYPE, `${size} B string`)),
  fc.integer({ min: 100, max: 6000 }).map((keys) => payload(JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i]))), JSON_TYPE, `${keys} keys`)),
  fc.integer({ min: 1000, max: 20_000 }).map((items) => payload(JSON.stringify(Array.from({ length: items }, () => 0)), JSON_TYPE, `${items} items`)),
);

const VALID_JSON_TEXT = '{"scenario":"won","consent":{"accepted":true}}';

/** Text that is not JSON, or JSON in bytes or encodings the API does not take. */
const badJson = fc.oneof(
  fc.integer({ min: 1, max: VALID_JSON_TEXT.length - 1 }).map((cut) => payload(VALID_JSON_TEXT.slice(0, cut), JSON_TYPE, 'truncated')),
  fc.constantFrom('{"a":1,}', "{'a':1}", '{a:1}', 'NaN', 'undefined', '{"a":01}', '{"a":"\\x41"}', '[1,,2]', '{"a":1}{"b":2}', '\u0000', ' ', '{"a":"\\ud800"}', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}')
    .map((text) => payload(text, JSON_TYPE, 'bad or tricky json')),
  fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => payload(Buffer.from(bytes), JSON_TYPE, 'random bytes')),
  fc.constant(payload(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{}')]), JSON_TYPE, 'utf-8 BOM')),
  fc.constant(payload(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]), JSON_TYPE, 'invalid utf-8')),
  fc.constant(payload(Buffer.from('{"scenario":"won"}', 'utf16le'), 'application/json; charset=utf-16', 'utf-16 body')),
  fc.constant(payload(Buffer.from('{"scenario":"w\xf6n"}', 'latin1'), 'application/json; charset=latin1', 'latin1 charset')),
  fc.constant(payload('{}', 'application/json; charset=klingon', 'unknown charset')),
  fc.constant(payload(gzipSync('{"scenario":"won"}'), JSON_TYPE, 'gzip, valid', 'gzip')),
  fc.constant(payload(gzipSync(`[${'0,'.repeat(400_000)}0]`), JSON_TYPE, 'gzip bomb: 800 KB inflated', 'gzip')),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => payload(Buffer.from(bytes), JSON_TYPE, 'corrupt gzip', 'gzip')),
  fc.constantFrom('br', 'deflate', 'compress', 'x-klingon', 'gzip, gzip', 'identity').map((encoding) => payload('{}', JSON_TYPE, 'declared encoding', encoding)),
);

/** Bodies that are not JSON at all, or say they are something else. */
const foreignBody = fc.oneof(
  fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=fuzz', 'application/xml', 'application/jsonp', 'application/merge-patch+json', 'json', '*/*', 'a/b/c', ';;;', 'application/json, text/plain')
    .map((type) => payload('{"scenario":"won"}', type, 'json under another type')),
  fc.constant(payload('{"scenario":"won"}', undefined, 'json without a content type')),
  fc.constant(payload('scenario=won&consent[accepted]=true', 'application/x-www-form-urlencoded', 'form')),
  fc.constant(payload('--fuzz\r\nContent-Disposition: form-data; name="scenario"\r\n\r\nwon\r\n--fuzz--\r\n', 'multipart/form-data; boundary=fuzz', 'multipart')),
  fc.constant(payload('<scenario>won</scenario>', 'application/xml', 'xml')),
);

/** Any body a hostile client may send to a JSON endpoint, with `shaped` for the endpoint's own fields. */
export function hostileJsonBody(shaped: fc.Arbitrary<unknown>): fc.Arbitrary<Payload | undefined> {
  return fc.oneof(
    { weight: 6, arbitrary: jsonPayload(shaped) },
    { weight: 2, arbitrary: jsonPayload(hostileValue) },
    { weight: 2, arbitrary: badJson },
    { weight: 1, arbitrary: foreignBody },
    { weight: 1, arbitrary: deepBody },
    { weight: 1, arbitrary: bigBody },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** Mostly no body, as a GET has; sometimes any hostile one. */
export const bodyOnGet: fc.Arbitrary<Payload | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: hostileJsonBody(fc.constant({})) },
);

/** Describes one JSON field of a body: values the schema takes and values it must refuse. */
export interface FieldShape {
  valid: fc.Arbitrary<unknown>;
  invalid: fc.Arbitrary<unknown>;
}

/**
 * Bodies a strict schema must refuse, by construction: a field with an invalid value, an unknown
 * extra field, or not an object at all. Fields are all present otherwise, so the refusal is never
 * a missing-field case that a default could make valid.
 */
export function invalidBody(shape: Record<string, FieldShape>): fc.Arbitrary<unknown> {
  const names = Object.keys(shape);
  const validRecord = fc.record(Object.fromEntries(names.map((name) => [name, shape[name]!.valid])));
  const unknownField = fc.oneof(fc.constantFrom('admin', 'is_admin', 'odds', 'email', 'collector_id', 'country', 'pack_code', 'constructor', '__proto__', ''), hostileText)
    .filter((name) => !names.includes(name));
  const oneInvalid = names.length === 0 ? fc.constant(undefined) : fc.constantFrom(...names).chain((name) => fc.tuple(fc.constant(name), shape[name]!.invalid));
  return fc.oneof(
    fc.tuple(validRecord, oneInvalid).map(([record, bad]) => (bad ? { ...record, [bad[0]]: bad[1] } : { admin: true })),
    fc.tuple(validRecord, unknownField, hostileValue).map(([record, name, value]) => ({ ...record, [name]: value })),
    fc.oneof(fc.array(hostileValue, { maxLength: 3 }), hostileText, fc.integer(), fc.boolean()),
  );
}

/** Bodies an endpoint may accept or refuse: fields missing, wrong, extra, or right. */
export function anyBody(shape: Record<string, FieldShape>): fc.Arbitrary<unknown> {
  const fields = Object.fromEntries(Object.entries(shape).map(([name, field]) => [name, fc.oneof(field.valid, field.invalid)]));
  return fc.oneof(fc.record(fields, { requiredKeys: [] }), invalidBody(shape));
}

export type HeaderMap = Record<string, string | string[] | undefined>;

/** Headers a client should not send, or sends oddly; each run picks a few. */
export const abusiveHeaders: fc.Arbitrary<HeaderMap> = fc
  .array(
    fc.oneof(
      fc.tuple(fc.constantFrom('accept', 'accept-charset', 'accept-encoding', 'accept-language', 'origin', 'referer', 'user-agent', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'x-http-method-override', 'if-none-match', 'if-modified-since', 'range', 'forwarded', 'x-request-id', 'expect-ct', 'te', 'via'), headerText),
      fc.tuple(fc.constant('x-fuzz'), fc.array(headerText, { minLength: 2, maxLength: 3 })),
      fc.tuple(fc.constant('cookie'), fc.oneof(headerText, fc.constantFrom('promo_session=%E0%A4%A', 'promo_session=', '=;;=', 'promo_session=a; promo_session=b', 'promo_csrf=%', `promo_session=${'s'.repeat(6000)}`))),
    ),
    { maxLength: 4 },
  )
  .map((pairs): HeaderMap => Object.fromEntries(pairs));

/** Methods beyond the ones each route takes. */
export const anyMethod = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND');

/** A query string of the route's parameters and others, with `meaningful` or hostile values, repeated keys and bracket syntax. */
export function hostileQuery(names: readonly string[], meaningful: readonly string[] = []): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...names) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', `${names[0]}[]`, `${names[0]}[x]`, '') },
    { weight: 1, arbitrary: hostileText.map(encodeSegment) },
  );
  const value = meaningful.length > 0 ? fc.oneof(fc.constantFrom(...meaningful), pathSegment) : pathSegment;
  return fc.array(fc.tuple(name, value), { maxLength: 5 }).map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([key, text]) => `${key}=${text}`).join('&')}`));
}

/** Mostly the first of `secrets`, which lets a request reach validation; sometimes one of the others. */
function favouring(secrets: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(secrets[0]!) }, { weight: 1, arbitrary: fc.constantFrom(...secrets) });
}

/** `Authorization` values around real secrets: a secret itself, mangled, or in the wrong scheme. */
export function authorizationFor(secrets: readonly string[]): fc.Arbitrary<string | string[] | undefined> {
  const secret = favouring(secrets);
  return fc.oneof(
    { weight: 7, arbitrary: secret.map((value) => `Bearer ${value}`) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 3,
      arbitrary: fc.oneof(
        secret.map((value) => `bearer ${value}`),
        secret.map((value) => `Bearer  ${value}  `),
        secret.map((value) => `Bearer ${value}x`),
        secret.map((value) => `Bearer ${value.slice(0, -1)}`),
        secret.map((value) => `Bearer ${value.toUpperCase()}`),
        secret.map((value) => `Bearer ${value} ${value}`),
        secret.map((value) => `Basic ${Buffer.from(`${value}:`).toString('base64')}`),
        secret.map((value) => value),
        secret.map((value) => [`Bearer ${value}`, 'Bearer other']),
        fc.constantFrom('Bearer', 'Bearer ', 'Bearer\t', 'Token abc', 'Bearer null', 'Bearer undefined', `Bearer ${'k'.repeat(8000)}`),
        headerText.map((text) => `Bearer ${text}`),
        headerText,
      ),
    },
  );
}

/** A header value around real tokens, like `authorizationFor` without the scheme. */
export function tokenFor(tokens: readonly string[]): fc.Arbitrary<string | string[] | undefined> {
  const token = fc.constantFrom(...tokens);
  return fc.oneof(
    { weight: 4, arbitrary: token },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 3,
      arbitrary: fc.oneof(
        token.map((value) => `${value} `),
        token.map((value) => `${value}x`),
        token.map((value) => value.toUpperCase()),
        token.map((value) => [value, value]),
        token.map((value) => `Bearer ${value}`),
        headerText,
      ),
    },
  );
}

export const FORM_TYPE = 'application/x-www-form-urlencoded';

/** Form fields as a urlencoded body; a field given as a list repeats its name. */
export function formPayload(fields: Record<string, string | string[] | undefined>, contentType = FORM_TYPE): Payload {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const item of value === undefined ? [] : [value].flat()) form.append(name, item);
  return payload(form.toString(), contentType, 'form');
}

/**
 * How a page's form travels: its fields under a content type (mostly the right one), or a body
 * that replaces them and is no such form.
 */
export const formEncoding: fc.Arbitrary<string | Payload | undefined> = fc.oneof(
  { weight: 10, arbitrary: fc.constant(FORM_TYPE) },
  { weight: 1, arbitrary: fc.constantFrom(`${FORM_TYPE}; charset=utf-16`, `${FORM_TYPE}; charset=klingon`, 'multipart/form-data; boundary=x', 'text/plain', JSON_TYPE) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz=%zz', 'a=%E0%A4%A', '&&&==&', 'a[b][c]=1', '__proto__[x]=1', '=').map((text) => payload(text, FORM_TYPE, 'odd form')) },
  { weight: 1, arbitrary: fc.integer({ min: 51, max: 400 }).map((count) => payload(Array.from({ length: count }, (_, i) => `f${i}=1`).join('&'), FORM_TYPE, `${count} fields`)) },
  { weight: 1, arbitrary: fc.integer({ min: 100 * 1024, max: 300 * 1024 }).map((size) => payload(`a=${'a'.repeat(size)}`, FORM_TYPE, `${size} B form`)) },
  { weight: 1, arbitrary: hostileJsonBody(fc.constant({})) },
);

/** A form field's value: one of `valid`, hostile text, a repeated field, or missing. */
export function formValue(...valid: string[]): fc.Arbitrary<string | string[] | undefined> {
  return fc.oneof(
    ...(valid.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...valid) }] : []),
    { weight: 2, arbitrary: hostileText },
    { weight: 1, arbitrary: fc.array(hostileText, { minLength: 2, maxLength: 3 }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}
