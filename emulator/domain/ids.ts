/**
 * The one rule for an id or a count written as text, in a path, a query, a promotion reference or
 * a command's argument: its digits exactly. No sign, exponent, decimals, spaces or leading zero
 * (`1.0`, `1e0`, `01`, `+1` and ` 1` name nothing), and at most Number.MAX_SAFE_INTEGER, so the
 * number is exact (the harness asks for calls after 9007199254740991, the largest).
 */

/** The shape of an id: what the API documents show; `isIdText` also holds the bound. */
export const ID_DIGITS = /^[1-9]\d{0,15}$/;

/** An id: 1 or more. */
export function isIdText(text: string): boolean {
  return ID_DIGITS.test(text) && Number(text) <= Number.MAX_SAFE_INTEGER;
}

/** A count or a cursor: 0 or more. */
export function isWholeText(text: string): boolean {
  return text === '0' || isIdText(text);
}
