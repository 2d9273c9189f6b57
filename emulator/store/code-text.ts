/** How the codes the emulator makes read: pack codes, prize codes, pool codes. All derive from the seed. */
import { deriveBytes } from '../domain/secrets.js';

/** Unambiguous upper-case letters and digits (no 0/O, 1/I/L). */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function codeSuffix(seed: string, label: string, length = 5): string {
  const bytes = deriveBytes(seed, label);
  let suffix = '';
  for (let i = 0; i < length; i++) suffix += CODE_ALPHABET[bytes[i]! % CODE_ALPHABET.length];
  return suffix;
}

/** The code a won instant-win prize delivers: it belongs to the pack, the same whichever page entered it. */
export function prizeCode(seed: string, brandPrefix: string, unitId: number): string {
  return `${brandPrefix}-${codeSuffix(seed, `prize-code:${unitId}`, 10)}`;
}

/** A code-unlock promotion's code: the pool's prefix and ten characters. `label` tells the pool's codes apart. */
export function poolCode(seed: string, prefix: string, label: string): string {
  return `${prefix}-${codeSuffix(seed, `pool-code:${label}`, 10)}`;
}
