/** Values drawn once per run, so that no page can match a constant of the harness. */
import { randomBytes } from 'node:crypto';

/** `count` random letters from `first`'s alphabet (a or A). */
function letters(count: number, first: 'a' | 'A'): string {
  return Array.from(randomBytes(count), (byte) => String.fromCharCode(first.charCodeAt(0) + (byte % 26))).join('');
}

/** The attribute the terms' markup probe carries. */
export const drawProbeMark = (): string => `data-${letters(8, 'a')}`;

/** A terms version (mixed case, so a page that changes its case is seen) and a link label. */
export function drawTermsValues(): { version: string; label: string } {
  return { version: `${letters(2, 'A')}-${1000 + (randomBytes(2).readUInt16BE() % 9000)}${letters(1, 'a')}`, label: `${letters(1, 'A')}${letters(6, 'a')}` };
}
