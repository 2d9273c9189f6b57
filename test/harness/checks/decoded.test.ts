/** decodedLayers: what a text the browser held says once decoded, each encoding alone and nested, and what it leaves alone. */
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { ConfigSchema } from '../../../harness/config.js';
import { RunFacts } from '../../../harness/run/facts.js';
import { decodedLayers } from '../../../harness/checks/decoded.js';
import { SECRET_CHECKS } from '../../../harness/checks/secrets.js';

const KEY = 'sk_prod_4f9Qx2LmZ8rTt1VwYb6N';
const hex = (text: string) => Buffer.from(text).toString('hex');
const holds = (text: string) => decodedLayers(text).some((layer) => layer.includes(KEY));

describe('each encoding, found inside a longer text', () => {
  test.for([
    ['hex, lower case', `<meta name="cfg" content="${hex(`{"key":"${KEY}"}`)}">`],
    ['hex, upper case', `var k = "${hex(KEY).toUpperCase()}";`],
    ['hex, after a stray hex digit', `id=a${hex(KEY)}`],
    ['base64', `data-config="${Buffer.from(KEY).toString('base64')}"`],
    ['URL escapes', `/next?k=${[...KEY].map((char) => `%${char.charCodeAt(0).toString(16)}`).join('')}`],
    ['a JSON string escape', `{"key": "\\u0073${KEY.slice(1)}"}`],
    ['hex of zlib-compressed JSON', deflateSync(JSON.stringify({ key: KEY })).toString('hex')],
    ['base64 of hex', Buffer.from(hex(KEY)).toString('base64')],
  ])('%s', ([, text]) => {
    expect(text).not.toContain(KEY);
    expect(holds(text)).toBe(true);
  });
});

test('the text itself is not among its layers, and a text with nothing encoded has none', () => {
  expect(decodedLayers('plain words, nothing encoded here')).toEqual([]);
  expect(decodedLayers(`key ${KEY}`)).not.toContain(`key ${KEY}`);
});

test('random hex and random base64 decode to nothing that reads as text', () => {
  expect(decodedLayers(`${randomBytes(64).toString('hex')} ${randomBytes(64).toString('base64')}`)).toEqual([]);
});

test('a secret written in hex fails secrets.key_not_in_browser, as the plain one does (issue 42 item 4)', () => {
  const check = SECRET_CHECKS.find((candidate) => candidate.id === 'secrets.key_not_in_browser')!;
  const facts = (text: string) => {
    const seen = new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, '/tmp');
    seen.pages.push({ scenario: 'consent', journey: 'main', environment: 'production', at: 0, url: 'http://127.0.0.1:3000/consent', status: 200, shows: [], links: [], title: '', text: '' });
    seen.bodies.push({ scenario: 'consent', url: 'http://127.0.0.1:3000/consent', text });
    seen.secrets = { counters: {}, keys: [{ secret: KEY }], session_tokens: [] } as unknown as RunFacts['secrets'];
    return seen;
  };
  expect(check.evaluate(facts(`<script>const k = "${hex(KEY)}";</script>`))).toMatchObject({ status: 'fail', evidence: [{ label: expect.stringContaining('found in: responses (decoded)') }] });
  expect(check.evaluate(facts('<script>const k = "none";</script>'))).toMatchObject({ status: 'pass' });
});
