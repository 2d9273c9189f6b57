/**
 * What a text the browser held says once decoded, for the secrets checks: a secret base64-encoded,
 * compressed, in a JWT or in a signed (not encrypted) session cookie is still in the browser.
 * Flask's default session cookie, the commonest case, is `.` + base64url(zlib(JSON)) + `.` +
 * timestamp + `.` + signature: its payload is one base64url run between dots, like a JWT's parts.
 * Decoded are URL escapes, JSON string escapes (a JSON document kept as a string, nested), hex,
 * base64 and base64url runs, and what those hold compressed (zlib, raw deflate, gzip); each result
 * is decoded again, a few layers deep.
 */
import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

/** Layers of encoding undone: base64 of compressed JSON holding a JSON string is four. */
const MAX_DEPTH = 5;
/** A decoded value larger than this is not a secret's container (an image, a font). */
const MAX_DECODED = 256 * 1024;
/** Runs of the base64 and base64url alphabets long enough to hold a secret (16 random bytes). */
const BASE64_RUN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
/** Runs of hex digits long enough to hold a secret (16 bytes): a run of odd length is tried from either end. */
const HEX_RUN = /[0-9A-Fa-f]{32,}/g;
/** Runs holding at least one %XX escape. */
const PERCENT_RUN = /[^\s"'<>%]*(?:%[0-9A-Fa-f]{2}[^\s"'<>%]*)+/g;
/** JSON string literals holding an escape: a nested document, or a value with `\/` or `\u…`. */
const ESCAPED_STRING = /"(?:[^"\\\n]|\\.)*\\(?:[^"\\\n]|\\.)*"/g;

/** Every decoding found in `text`, each decoded again, deduplicated; the raw text itself not included. */
export function decodedLayers(text: string): string[] {
  const seen = new Set<string>([text]);
  const found: string[] = [];
  let layer = [text];
  for (let depth = 0; depth < MAX_DEPTH && layer.length > 0; depth += 1) {
    const next = layer.flatMap(decodeOnce).filter((decoded) => !seen.has(decoded));
    for (const decoded of next) seen.add(decoded);
    found.push(...new Set(next));
    layer = [...new Set(next)];
  }
  return found;
}

function decodeOnce(text: string): string[] {
  const found: string[] = [];
  for (const run of new Set(text.match(PERCENT_RUN) ?? [])) {
    try {
      found.push(decodeURIComponent(run));
    } catch {
      // a stray % that escapes nothing
    }
  }
  for (const literal of new Set(text.match(ESCAPED_STRING) ?? [])) {
    try {
      found.push(JSON.parse(literal) as string);
    } catch {
      // not JSON after all
    }
  }
  const binary: Buffer[] = [];
  for (const run of new Set(text.match(HEX_RUN) ?? [])) {
    if (run.length > MAX_DECODED * 2) continue;
    for (const even of run.length % 2 ? [run.slice(1), run.slice(0, -1)] : [run]) binary.push(Buffer.from(even, 'hex'));
  }
  for (const run of new Set(text.match(BASE64_RUN) ?? [])) {
    if (run.length <= (MAX_DECODED * 4) / 3) binary.push(Buffer.from(run.replaceAll('-', '+').replaceAll('_', '/'), 'base64'));
  }
  for (const bytes of binary) for (const candidate of [bytes, ...inflated(bytes)]) if (isText(candidate)) found.push(candidate.toString('utf8'));
  return found;
}

/** What the bytes hold if they are compressed: zlib (its header), gzip (its magic), or raw deflate. */
function inflated(bytes: Buffer): Buffer[] {
  const options = { maxOutputLength: MAX_DECODED };
  const attempts: Array<() => Buffer> = [];
  if (bytes.length >= 2 && (bytes[0]! & 0x0f) === 8 && ((bytes[0]! << 8) | bytes[1]!) % 31 === 0) attempts.push(() => inflateSync(bytes, options));
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) attempts.push(() => gunzipSync(bytes, options));
  attempts.push(() => inflateRawSync(bytes, options));
  return attempts.flatMap((attempt) => {
    try {
      return [attempt()];
    } catch {
      return [];
    }
  });
}

/** Mostly printable ASCII: what a secret's container is once decoded, unlike random bytes. */
function isText(bytes: Buffer): boolean {
  if (bytes.length < 8) return false;
  let printable = 0;
  for (const byte of bytes) if ((byte >= 0x20 && byte < 0x7f) || byte === 0x09 || byte === 0x0a || byte === 0x0d) printable += 1;
  return printable >= bytes.length * 0.9;
}
