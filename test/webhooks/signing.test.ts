import { createHmac } from 'node:crypto';
import { expect, test } from 'vitest';
import { endpointSecret, signatureHeader, verifySignature } from '../../emulator/domain/webhook-signing.js';

const SECRET = endpointSecret('seed', 1);
const BODY = '{"id":"abc","event":"scan.processed"}';
const NOW = 1_790_000_000;

test('the signature is t=<unix>,v1=<hex HMAC-SHA256 of "t.body"> with the endpoint secret', () => {
  const expected = createHmac('sha256', SECRET).update(`${NOW}.${BODY}`).digest('hex');
  expect(signatureHeader(SECRET, NOW, BODY)).toBe(`t=${NOW},v1=${expected}`);
});

test('endpoint secrets derive from the seed and the serial, and differ between endpoints', () => {
  expect(endpointSecret('seed', 1)).toBe(SECRET);
  expect(endpointSecret('seed', 2)).not.toBe(SECRET);
  expect(endpointSecret('other', 1)).not.toBe(SECRET);
  expect(SECRET).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
});

test('verification rejects a missing or malformed header', () => {
  expect(verifySignature(undefined, BODY, SECRET, NOW)).toEqual({ refused: { reason: 'missing', problem: 'no X-Service-Signature header' } });
  expect(verifySignature('v1=abc', BODY, SECRET, NOW)).toMatchObject({ refused: { reason: 'malformed' } });
  expect(verifySignature(`t=soon,v1=abc`, BODY, SECRET, NOW)).toMatchObject({ refused: { reason: 'malformed' } });
});

test('verification rejects a tampered body and a wrong secret', () => {
  const header = signatureHeader(SECRET, NOW, BODY);
  expect(verifySignature(header, `${BODY} `, SECRET, NOW)).toMatchObject({ refused: { reason: 'mismatch', problem: expect.stringContaining('does not match') } });
  expect(verifySignature(header, BODY, endpointSecret('seed', 2), NOW)).toMatchObject({ refused: { reason: 'mismatch' } });
});

test('verification rejects timestamps more than 300 seconds away, in the past or the future', () => {
  const header = signatureHeader(SECRET, NOW, BODY);
  expect(verifySignature(header, BODY, SECRET, NOW + 300)).toEqual({ verified: true });
  expect(verifySignature(header, BODY, SECRET, NOW - 300)).toEqual({ verified: true });
  expect(verifySignature(header, BODY, SECRET, NOW + 301)).toMatchObject({ refused: { reason: 'too_old', problem: expect.stringContaining('300 seconds') } });
  expect(verifySignature(header, BODY, SECRET, NOW - 301)).toMatchObject({ refused: { reason: 'too_old' } });
});

test('verification accepts a matching v1 among several and tolerates spaces after commas', () => {
  const valid = signatureHeader(SECRET, NOW, BODY).split(',')[1];
  expect(verifySignature(`t=${NOW}, v1=${'0'.repeat(64)}, ${valid}`, BODY, SECRET, NOW)).toEqual({ verified: true });
});
