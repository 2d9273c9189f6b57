/**
 * Text from the agency is printed, never obeyed: every control character (C0 with newline and tab,
 * DEL, C1, the line and paragraph separators, the bidirectional marks, overrides and isolates) and
 * every character that draws nothing (zero-width spaces and joiners, the word joiner and invisible
 * operators, the byte-order mark, soft hyphen, tag characters) is shown as its escape, e.g. ESC as
 * `\x1b`, U+200B as `\u200b`, so no header, cookie name or URL the agency wrote can retitle a
 * terminal, set its clipboard, redraw a `FAIL` line as `PASS`, or hide text between letters. So are
 * the characters no XML document may hold (U+FFFE, U+FFFF, a surrogate without its pair).
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ufffe\uffff\u{e0000}-\u{e007f}\u{d800}-\u{dfff}]/gu;

export const showControls = (text: string): string =>
  text.replace(CONTROLS, (char) => {
    const code = char.codePointAt(0)!;
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });

/** A copy of a value with every string in it passed through showControls: what reaches the reporters. */
export function inert<T>(value: T): T {
  if (typeof value === 'string') return showControls(value) as T;
  if (Array.isArray(value)) return value.map(inert) as T;
  if (value instanceof Map) return new Map([...value].map(([key, item]) => [inert(key), inert(item)])) as T;
  if (value && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) return Object.fromEntries(Object.entries(value).map(([key, item]) => [showControls(key), inert(item)])) as T;
  return value;
}

/** Text placed in HTML: element content and quoted attribute values. */
export const escapeHtml = (text: string) => text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[char]!);
