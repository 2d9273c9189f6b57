/** The verifier search: the emulator keeps no verifier, so the harness finds one by its S256 in what the browser held. */
import { createHash, randomBytes } from 'node:crypto';
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { SECRET_CHECKS } from '../../../harness/checks/secrets.js';
import { ConfigSchema } from '../../../harness/config.js';
import type { ObservedCall } from '../../../harness/emulator-client/client.js';
import { RunFacts } from '../../../harness/run/facts.js';

const VERIFIER = 'Zq3_u-8.kW~' + 'a1B2c3D4e5'.repeat(5);
const check = SECRET_CHECKS.find((candidate) => candidate.id === 'secrets.verifier_not_in_browser')!;

function factsHolding(text: string): RunFacts {
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, '/tmp');
  facts.pages.push({ scenario: 's', journey: 'main', environment: 'production', at: 0, url: 'http://127.0.0.1:3000/result', status: 200, shows: [], links: [], title: '', text: '' });
  facts.storage.push({ scenario: 's', url: 'http://127.0.0.1:3000/result', text });
  const verifier = { length: VERIFIER.length, unreserved: true, s256: createHash('sha256').update(VERIFIER).digest('base64url') };
  facts.calls.push({ seq: 1, at: 0, method: 'POST', path: '/sessions', environment: 'production', key_id: 1, session_id: 1, pack: 'P', scenario: null, status: 201, body: {}, verifier } satisfies ObservedCall);
  return facts;
}

test('a verifier the browser held is found by its S256, alone or inside a longer run of unreserved characters', () => {
  for (const text of [`<input value="${VERIFIER}">`, `{"pkce":"v1.${VERIFIER}.sig"}`]) {
    const verdict = check.evaluate(factsHolding(text))!;
    expect(verdict.status, text).toBe('fail');
    expect(verdict.evidence[0]!.label).toBe(`code_verifier ${VERIFIER.slice(0, 4)}…${VERIFIER.slice(-4)} found in: DOM and storage`);
  }
});

test('other values of the same length and alphabet are not mistaken for it', () => {
  const verdict = check.evaluate(factsHolding(`<input value="${VERIFIER.replace('Z', 'Y')}">`))!;
  expect([verdict.status, verdict.reason]).toEqual(['pass', expect.stringMatching(/^1 code_verifier\(s\) searched for in 1 agency pages; none in DOM and storage/)]);
});

describe('seen 3: a secret kept encoded is still in the browser', () => {
  const json = JSON.stringify({ state: 'S'.repeat(43), code_verifier: VERIFIER });
  const flask = `.${deflateSync(json).toString('base64url')}.ZXJ2Zw.c2lnbmF0dXJlLW9mLWl0`;
  const encodings: Record<string, string> = {
    "Flask's signed session cookie (base64url of zlib-compressed JSON, timestamp, signature)": `Set-Cookie: session=${flask}; HttpOnly; Path=/`,
    'a JWT payload': `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(json).toString('base64url')}.c2ln`,
    'base64 of gzip': Buffer.from(gzipSync(json)).toString('base64'),
    'raw deflate, base64url': deflateRawSync(json).toString('base64url'),
    'URL-encoded base64 in a query': `/next?t=${encodeURIComponent(Buffer.from(`${json}?>>>`).toString('base64'))}`,
    'a JSON document kept as a JSON string, base64 inside': JSON.stringify({ wrapped: JSON.stringify({ inner: Buffer.from(json).toString('base64') }) }),
  };

  test.for(Object.entries(encodings))('%s: fails, found in what the browser held once decoded', ([, text]) => {
    const verdict = check.evaluate(factsHolding(text))!;
    expect(verdict.status).toBe('fail');
    expect(verdict.evidence[0]!.label).toBe(`code_verifier ${VERIFIER.slice(0, 4)}…${VERIFIER.slice(-4)} found in: DOM and storage (decoded)`);
  });

  test('random bytes that merely look like base64, and compressed text holding another value, are not mistaken for it', () => {
    const other = JSON.stringify({ code_verifier: VERIFIER.replace('Z', 'Y') });
    const verdict = check.evaluate(factsHolding(`${randomBytes(96).toString('base64url')} .${deflateSync(other).toString('base64url')}.x.y`))!;
    expect(verdict.status).toBe('pass');
  });
});
