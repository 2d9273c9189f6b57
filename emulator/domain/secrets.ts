/**
 * Secrets the emulator issues: keys, tokens, codes. They derive from the seed so that the same
 * fixture and seed give the same values on every run; only their
 * SHA-256 is stored, and every comparison is constant-time.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export type SecretKind = 'sandbox_key' | 'production_key' | 'session' | 'request_token' | 'code' | 'reporting_token' | 'webhook_secret';

/** Each secret's prefix, which its shape starts with. */
export const SECRET_PREFIXES: Readonly<Record<SecretKind, string>> = {
  sandbox_key: 'pk_sandbox_',
  production_key: 'pk_live_',
  session: 'sess_',
  request_token: 'rt_',
  code: 'sc_',
  reporting_token: 'pkd_',
  webhook_secret: 'whsec_',
};

/**
 * Our secrets by their shape, wherever they sit in a text: a prefix at the start of a word and at
 * least 16 of its characters (the issued ones have 32 base64url or 64 hex), so that a shortened or
 * mistyped secret is found too. For redaction (domain/redaction.ts).
 */
export const SECRET_SHAPE = new RegExp(`(?<![A-Za-z0-9])(?:${Object.values(SECRET_PREFIXES).join('|')})[A-Za-z0-9_-]{16,}`, 'g');

/** A deterministic pseudo-random byte string for a label, keyed by the seed. */
export function deriveBytes(seed: string, label: string): Buffer {
  return createHmac('sha256', seed).update(label).digest();
}

/** A deterministic number in [0, 1) for a label, keyed by the seed. */
export function deriveUnit(seed: string, label: string): number {
  return deriveBytes(seed, label).readUInt32BE(0) / 0x1_0000_0000;
}

export function issueSecret(seed: string, kind: SecretKind, serial: number | string): string {
  const bytes = deriveBytes(seed, `${kind}:${serial}`);
  // The reporting token's documented form is `pkd_` + 64 hex characters (public reference §2).
  const body = kind === 'reporting_token' ? bytes.toString('hex') : bytes.subarray(0, 24).toString('base64url');
  return SECRET_PREFIXES[kind] + body;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The last four characters, enough to tell keys apart on a dashboard without revealing them. */
export function maskSecret(secret: string): string {
  return `${secret.slice(0, secret.indexOf('_', 3) + 1)}…${secret.slice(-4)}`;
}
