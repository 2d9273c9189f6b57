/**
 * PKCE and state checks of the authorization-code exchange.
 * @see spec §4.3 steps 3 to 6, §5 (experience) rule 4, §8 limits
 */
import { createHash } from 'node:crypto';
import { STATE_LENGTH, VERIFIER_LENGTH } from './limits.js';
import { safeEqual } from './secrets.js';

/** 32 to 128 base64url characters. @see spec §5 rule 4, §8 */
export const STATE_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${STATE_LENGTH.min},${STATE_LENGTH.max}}$`);
/** 43 to 128 unreserved characters (RFC 3986 §2.3). @see spec §5 rule 4, §8 */
export const VERIFIER_PATTERN = new RegExp(`^[A-Za-z0-9._~-]{${VERIFIER_LENGTH.min},${VERIFIER_LENGTH.max}}$`);
/** An S256 challenge is the unpadded base64url of a 32-byte digest: 43 characters. */
export const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** @see spec §4.3 step 4: code_challenge = BASE64URL(SHA256(code_verifier)), unpadded. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  return VERIFIER_PATTERN.test(verifier) && safeEqual(s256(verifier), challenge);
}
