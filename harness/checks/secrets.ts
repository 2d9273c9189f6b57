/**
 * Keys, session tokens and verifiers never reach the browser. The emulator names every value it
 * issued, and the S256 of every verifier it was shown; the harness looks for each in everything
 * the browser held: the DOM, scripts and other responses of the agency, storage, the agency's
 * cookies, every URL, Referer and request body, and the console; each as it is and decoded
 * (decoded.ts: a signed cookie, a JWT, base64 of compressed JSON). @see spec §2.1, §2.3, §5 (experience) rules 4 and 6
 */
import { createHash } from 'node:crypto';
import type { VerifierVerdict } from '../emulator-client/client.js';
import type { RunFacts } from '../run/facts.js';
import { decodedLayers } from './decoded.js';
import { type Check, type Evidence, type Guidance, REFERENCE_AGENCY, fail, pass } from './types.js';

type Source = 'DOM and storage' | 'responses' | 'cookies' | 'URLs' | 'Referer headers' | 'request bodies' | 'console';

/** Everything the browser held, as one text per source. */
function browserHeld(facts: RunFacts): Array<[Source, string]> {
  return [
    ['DOM and storage', facts.storage.map((item) => item.text).join('\n')],
    ['responses', facts.bodies.map((item) => item.text).join('\n')],
    ['cookies', facts.responses.flatMap((response) => response.setCookies).join('\n')],
    ['URLs', [...facts.requests.map((request) => request.url), ...facts.pages.map((page) => page.url)].join('\n')],
    ['Referer headers', facts.requests.map((request) => request.referer ?? '').join('\n')],
    ['request bodies', facts.requests.map((request) => request.body ?? '').join('\n')],
    ['console', facts.console.map((line) => line.text).join('\n')],
  ];
}

/** The secrets a check looks for, and which of them a text holds. */
interface Search {
  count: number;
  in(text: string): string[];
}

/** Values the emulator named: found where they appear as they are. */
function exactly(values: string[]): Search {
  const secrets = [...new Set(values.filter((value) => value.length >= 16))];
  return { count: secrets.length, in: (text) => secrets.filter((secret) => text.includes(secret)) };
}

/**
 * Verifiers, which the emulator does not keep: it gives each one's length and S256, so every run of
 * unreserved characters the browser held is hashed, at each of those lengths, and compared.
 */
function byS256(verifiers: VerifierVerdict[]): Search {
  const hashes = new Set(verifiers.map((verifier) => verifier.s256));
  const lengths = [...new Set(verifiers.map((verifier) => verifier.length))].filter((length) => length >= 16);
  const runs = lengths.length ? new RegExp(`[A-Za-z0-9._~-]{${Math.min(...lengths)},}`, 'g') : undefined;
  return {
    count: hashes.size,
    in(text) {
      const found = new Set<string>();
      for (const run of new Set(runs ? text.match(runs) : [])) {
        for (const length of lengths) {
          for (let start = 0; start + length <= run.length; start += 1) {
            const candidate = run.slice(start, start + length);
            if (hashes.has(createHash('sha256').update(candidate).digest('base64url'))) found.add(candidate);
          }
        }
      }
      return [...found];
    },
  };
}

function secretCheck(id: string, title: string, spec: string, guidance: Guidance, noun: string, searchFor: (facts: RunFacts) => Search): Check {
  return {
    id, title, group: 'secrets', spec, kind: 'can_fail', guidance,
    evaluate(facts) {
      if (facts.pages.length === 0) return undefined;
      const search = searchFor(facts);
      if (search.count === 0) return undefined;
      const held = browserHeld(facts);
      const places = new Map<string, string[]>();
      const note = (secret: string, place: string) => places.set(secret, [...(places.get(secret) ?? []), place]);
      let decodedSize = 0;
      for (const [source, text] of held) {
        const raw = search.in(text);
        for (const secret of raw) note(secret, source);
        const decoded = decodedLayers(text).join('\n');
        decodedSize += decoded.length;
        for (const secret of search.in(decoded)) if (!raw.includes(secret)) note(secret, `${source} (decoded)`);
      }
      const found: Evidence[] = [...places].map(([secret, sources]) => ({ label: `${noun} ${secret.slice(0, secret.indexOf('_', 3) + 1) || secret.slice(0, 4)}…${secret.slice(-4)} found in: ${sources.join(', ')}` }));
      const searched = `${held.map(([source, text]) => `${source} (${Math.round(text.length / 1024)} KB)`).join(', ')}, and ${Math.round(decodedSize / 1024)} KB they hold encoded (URL, JSON, hex, base64, base64url, zlib, deflate, gzip)`;
      return found.length
        ? fail(`${found.length} ${noun}(s) reached the browser (${found[0]!.label.split(' found in: ')[1]})`, [found[0]!, ...found.slice(1)])
        : pass(facts.pages.length, `${search.count} ${noun}(s) searched for in ${facts.pages.length} agency pages; none in ${searched}`);
    },
  };
}

export const SECRET_CHECKS: Check[] = [
  secretCheck('secrets.key_not_in_browser', 'The agency keys never reach the browser', '§2.1, §5 rule 6', { rules: ['key-backend-only', 'secrets-out-of-browser'], fix: 'Keep the agency keys on the server: never in a page, a script, JSON for the browser or a URL.', reference: `${REFERENCE_AGENCY}/experience-client.ts` }, 'agency key', (facts) => exactly(facts.secrets.keys.map((key) => key.secret))),
  secretCheck('secrets.session_token_not_in_browser', 'Session tokens never reach the browser or a URL', '§2.3, §5 rule 6', { rules: ['session-token-server-side', 'secrets-out-of-browser'], fix: 'Keep the session token in server-side state keyed by your cookie; never send it to the browser or put it in a URL.', reference: `${REFERENCE_AGENCY}/browser-sessions.ts` }, 'session token', (facts) => exactly(facts.secrets.session_tokens)),
  secretCheck(
    'secrets.verifier_not_in_browser',
    'code_verifier is kept on the server, never in the browser',
    '§5 rule 4',
    { rules: ['pkce-server-side'], fix: 'Store code_verifier in the server-side transaction, never in a cookie, page or URL.', reference: `${REFERENCE_AGENCY}/browser-sessions.ts` },
    'code_verifier',
    (facts) => byS256(facts.calls.flatMap((call) => (call.verifier ? [call.verifier] : []))),
  ),
];
