/**
 * Webhook signing secrets and signatures: `X-Service-Signature: t=<unix seconds>,v1=<hex>`, the
 * HMAC-SHA256 of `<t>.<raw body>` keyed by the endpoint's secret, accepted within 300 seconds
 * either way. @see public reference §4.2
 */
import { createHmac } from 'node:crypto';
import { issueSecret, safeEqual } from './secrets.js';
import { type Refused, refused } from '../wire-contract.js';

const TOLERANCE_SECONDS = 300;

/** One secret per endpoint, derived from the seed and the endpoint's serial: shown once, never stored. */
export function endpointSecret(seed: string, serial: number): string {
  return issueSecret(seed, 'webhook_secret', serial);
}

export function signatureHeader(secret: string, unixSeconds: number, body: string): string {
  return `t=${unixSeconds},v1=${hmacHex(secret, `${unixSeconds}.${body}`)}`;
}

/** Why a signature was refused: `too_old` when only its age is wrong. */
export type Refusal = 'missing' | 'malformed' | 'mismatch' | 'too_old';

/** A signature that verifies, or why not: the reason, and the problem in words. */
export type Verification = { verified: true } | Refused<{ reason: Refusal; problem: string }>;

/** What a receiver does: parse the header, recompute, compare in constant time, check the age. */
export function verifySignature(header: string | undefined, body: string, secret: string, nowSeconds: number): Verification {
  if (!header) return refused({ reason: 'missing', problem: 'no X-Service-Signature header' });
  const parts = header.split(',').map((part) => {
    const cut = part.indexOf('=');
    return cut > 0 ? [part.slice(0, cut).trim(), part.slice(cut + 1).trim()] : ['', ''];
  });
  const t = parts.find(([name]) => name === 't')?.[1];
  const signatures = parts.filter(([name]) => name === 'v1').map(([, value]) => value!);
  if (!t || !/^\d+$/.test(t) || signatures.length === 0) return refused({ reason: 'malformed', problem: 'the signature header needs t=<unix seconds> and v1=<hex>' });
  const expected = hmacHex(secret, `${t}.${body}`);
  if (!signatures.some((signature) => safeEqual(signature, expected))) {
    return refused({ reason: 'mismatch', problem: 'v1 does not match the HMAC-SHA256 of "t.body" with this endpoint\'s secret' });
  }
  if (Math.abs(nowSeconds - Number(t)) > TOLERANCE_SECONDS) return refused({ reason: 'too_old', problem: `t is more than ${TOLERANCE_SECONDS} seconds from now` });
  return { verified: true };
}

function hmacHex(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}
