/**
 * The one rule for an id or a count written as text, in a path, a query, a promotion reference or
 * a command's argument: its digits exactly. No sign, exponent, decimals, spaces or leading zero
 * (`1.0`, `1e0`, `01`, `+1` and ` 1` name nothing), and at most 15 digits, so the number is exact.
 */
export const ID_DIGITS = /^[1-9]\d{0,14}$/;

/** The same, 0 included: a cursor such as `after=0`. */
export const WHOLE_DIGITS = /^(?:0|[1-9]\d{0,14})$/;
