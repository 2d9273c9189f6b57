/**
 * Duplicate keys in a JSON object (`{"consent": true, "consent": false}`): JSON.parse keeps the last
 * one silently, while another reader may keep the first. The emulator mirrors a strict service, so
 * a body that names a key twice in one object is refused rather than read one way of the two.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** The first key named twice in one object of `text`, which must be valid JSON (parse it first). */
export function duplicateKey(text: string): string | undefined {
  // One entry per open object (its keys so far) or array (null).
  const open: Array<Set<string> | null> = [];
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (char === OPEN_OBJECT) open.push(new Set());
    else if (char === OPEN_ARRAY) open.push(null);
    else if (char === CLOSE_OBJECT || char === CLOSE_ARRAY) open.pop();
    else if (char === QUOTE) {
      const start = at + 1;
      let escaped = false;
      for (at = start; text.charCodeAt(at) !== QUOTE; at++) {
        if (text.charCodeAt(at) === BACKSLASH) {
          escaped = true;
          at++;
        }
      }
      const keys = open.at(-1);
      if (!keys || !followedByColon(text, at + 1)) continue;
      const raw = text.slice(start, at);
      const key = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
      if (keys.has(key)) return key;
      keys.add(key);
    }
  }
  return undefined;
}

function followedByColon(text: string, from: number): boolean {
  for (let at = from; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (char === COLON) return true;
    if (char !== 0x20 && char !== 0x0a && char !== 0x0d && char !== 0x09) return false;
  }
  return false;
}
