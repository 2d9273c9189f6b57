import { describe, expect, it } from 'vitest';
import { CHALLENGE_PATTERN, STATE_PATTERN, VERIFIER_PATTERN, s256, verifierMatches } from '../../emulator/domain/pkce.js';

// RFC 7636 appendix B
const RFC_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const RFC_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('pkce', () => {
  it('computes the S256 challenge of RFC 7636 appendix B', () => {
    expect(s256(RFC_VERIFIER)).toBe(RFC_CHALLENGE);
    expect(CHALLENGE_PATTERN.test(RFC_CHALLENGE)).toBe(true);
  });

  it('accepts the right verifier and rejects a wrong one', () => {
    expect(verifierMatches(RFC_VERIFIER, RFC_CHALLENGE)).toBe(true);
    expect(verifierMatches(RFC_VERIFIER.replace('d', 'e'), RFC_CHALLENGE)).toBe(false);
  });

  it('rejects a plain challenge: the verifier itself is not its own challenge', () => {
    const verifier = 'a'.repeat(43);
    expect(verifierMatches(verifier, verifier)).toBe(false);
  });

  it('bounds verifier length to 43..128 unreserved characters', () => {
    expect(VERIFIER_PATTERN.test('a'.repeat(42))).toBe(false);
    expect(VERIFIER_PATTERN.test('a'.repeat(43))).toBe(true);
    expect(VERIFIER_PATTERN.test('a'.repeat(128))).toBe(true);
    expect(VERIFIER_PATTERN.test('a'.repeat(129))).toBe(false);
    expect(VERIFIER_PATTERN.test(`${'a'.repeat(42)}+`)).toBe(false);
  });

  it('bounds state length to 32..128 base64url characters', () => {
    expect(STATE_PATTERN.test('A'.repeat(31))).toBe(false);
    expect(STATE_PATTERN.test('A'.repeat(32))).toBe(true);
    expect(STATE_PATTERN.test('A'.repeat(128))).toBe(true);
    expect(STATE_PATTERN.test('A'.repeat(129))).toBe(false);
    expect(STATE_PATTERN.test(`${'A'.repeat(31)}=`)).toBe(false);
  });
});
