/**
 * What never leaves the emulator in clear: values under the names of secrets, and our own secrets
 * found by their shape (`SECRET_SHAPE`). The log file (logger.ts) redacts the same names; the
 * interaction log redacts whole bodies with `redactSecrets`.
 * @see spec §4.3 (callback page rules); the README's security section
 */
import { SECRET_PREFIXES, SECRET_SHAPE } from './secrets.js';

/** Field names whose values are secrets, whatever their shape: the journey's, PKCE's, and ours. */
export const SECRET_FIELDS = [
  'authorization_code', 'code_verifier', 'session_token', 'service_request', 'service_code', 'state', 'request_token', 'secret', 'key',
  'token', 'verifier', 'password', 'authorization', 'cookie', 'csrf',
] as const;

export const REDACTED = '[redacted]';

const SECRET_NAMES = new Set<string>(SECRET_FIELDS);

/**
 * Words that name a secret wherever they stand in a name, with their usual short forms: a name
 * holding one is a secret's (`api_key`, `X-Api-Key`, `apiKey`, `X-Auth`, `X-Auth-User`, `pass`,
 * `otp_code`, `pin`, `signature`, `client_secret`, `Proxy-Authorization`). `state` counts only alone
 * (`delivery_state` is no secret).
 */
const SECRET_WORDS = new Set([
  'key', 'token', 'secret', 'verifier', 'cookie', 'csrf', 'xsrf', 'nonce', 'credential', 'credentials',
  'password', 'passwd', 'pass', 'pwd', 'passphrase', 'passcode',
  'authorization', 'authentication', 'auth', 'bearer',
  'signature', 'sig', 'hmac',
  'otp', 'totp', 'hotp', 'pin', 'cvv', 'cvc',
]);

/** A name's words: split at anything but a letter, and where camelCase or an acronym starts a word. */
function wordsOf(name: string): string[] {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/);
}

/** Whether a field or header name names a secret, in any case. */
function isSecretName(name: string): boolean {
  return SECRET_NAMES.has(name.toLowerCase()) || wordsOf(name).some((word) => SECRET_WORDS.has(word));
}

/** Shorter text cannot hold a secret: the shortest prefix and the 16 characters `SECRET_SHAPE` asks for. */
const SHORTEST_SECRET = Math.min(...Object.values(SECRET_PREFIXES).map((prefix) => prefix.length)) + 16;

function redactText(text: string): string {
  return text.length < SHORTEST_SECRET ? text : text.replace(SECRET_SHAPE, REDACTED);
}

/**
 * A copy of a JSON value with every secret replaced by `[redacted]`: values under a secret's name
 * (`isSecretName`), and secret-shaped text in any string or field name, at any depth. Walks with
 * its own stack: the interaction log also records bodies nested deeper than a recursive walk could go.
 */
export function redactSecrets(value: unknown): unknown {
  const root: Record<string, unknown> = {};
  const stack: Array<[holder: object, at: string, value: unknown]> = [[root, 'value', value]];
  while (stack.length > 0) {
    const [holder, at, current] = stack.pop()!;
    if (typeof current === 'string') setOwn(holder, at, redactText(current));
    else if (Array.isArray(current)) {
      const copy: unknown[] = new Array(current.length);
      setOwn(holder, at, copy);
      current.forEach((item, index) => stack.push([copy, String(index), item]));
    } else if (current !== null && typeof current === 'object') {
      const copy = {};
      setOwn(holder, at, copy);
      for (const [name, item] of Object.entries(current)) {
        const shownName = redactText(name);
        // Defined now, in the body's order; the value is filled in when the walk reaches it.
        setOwn(copy, shownName, REDACTED);
        if (!isSecretName(name)) stack.push([copy, shownName, item]);
      }
    } else setOwn(holder, at, current);
  }
  return root.value;
}

/** An own data property, also for `__proto__`, which plain assignment would not create (every other name it does, and faster). */
function setOwn(holder: object, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(holder, name, { value, enumerable: true, writable: true, configurable: true });
  else (holder as Record<string, unknown>)[name] = value;
}
