/**
 * Text from the agency is printed, never obeyed: every control character (C0 with newline and tab,
 * DEL, C1, the line and paragraph separators, the bidirectional overrides) is shown as its escape,
 * e.g. ESC as `\x1b`, so no header, cookie name or URL the agency wrote can retitle a terminal, set
 * its clipboard, or redraw a `FAIL` line as `PASS`.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export const showControls = (text: string): string =>
  text.replace(CONTROLS, (char) => {
    const code = char.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
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
