/**
 * Every limit of spec §8, in one place: lifetimes, rate limits, lengths and page sizes. The store
 * stamps `expires_at` from these lifetimes, and every expiry check asks `expired`.
 * @see spec §8
 */
import { DURATION_UNITS } from '../clock.js';

/** @see spec §8: consumer session lifetime, 30 minutes */
export const SESSION_LIFETIME_MS = 30 * 60_000;
/** @see spec §8: request token lifetime, 5 minutes */
export const REQUEST_TOKEN_LIFETIME_MS = 5 * 60_000;
/** @see spec §8: authorization code lifetime, 5 minutes, single-use */
export const CODE_LIFETIME_MS = 5 * 60_000;
/** @see spec §8: agency key lifetime, 90 days */
export const KEY_LIFETIME_MS = 90 * 86_400_000;
/** How long a collector's sign-in lasts in the simulated browser, on the virtual clock; the spec leaves it open. */
export const BROWSER_SESSION_LIFETIME_MS = 24 * 3_600_000;

/**
 * A lifetime in words, for messages and documents: `30 minutes`, `90 days`, `3,000 days`. Error
 * tables word their messages when their module loads, some at start: `toLocaleString` would load
 * ICU's locale data there, about 6 MB of the idle emulator's memory, so the thousands are grouped here.
 */
export function inWords(ms: number): string {
  const unit = DURATION_UNITS.find((each) => ms % each.ms === 0) ?? DURATION_UNITS.at(-1)!;
  const count = ms / unit.ms;
  return `${String(count).replace(/\B(?=(\d{3})+$)/g, ',')} ${unit.word}${count === 1 ? '' : 's'}`;
}

/** A lifetime that ends at `expiresAt` is over from that instant on. */
export function expired(expiresAt: number, now: number): boolean {
  return now >= expiresAt;
}

export interface Limits {
  /** @see spec §8: experience requests per minute per consumer session */
  perSession: number;
  /** @see spec §8: experience requests per minute per campaign key */
  perKey: number;
  windowMs: number;
}

/** The rate limits, as a sliding window (decisions/004). @see spec §8 */
export const SPEC_LIMITS: Limits = { perSession: 60, perKey: 3000, windowMs: 60_000 };

/** @see spec §8: `state`, 32 to 128 base64url characters */
export const STATE_LENGTH = { min: 32, max: 128 } as const;
/** @see spec §8: `code_verifier`, 43 to 128 unreserved characters */
export const VERIFIER_LENGTH = { min: 43, max: 128 } as const;

/** @see spec §8: scan list `limit` at most 1000, default 100; `offset` default 0 */
export const SCAN_PAGE = { max: 1000, default: 100 } as const;
/** @see spec §8: the collector detail carries the last 20 scans */
export const RECENT_SCANS = 20;
