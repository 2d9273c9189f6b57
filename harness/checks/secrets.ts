/**
 * Keys, session tokens and verifiers never reach the browser. The emulator names every value it
 * issued and every verifier it was shown; the harness looks for each in everything the browser
 * held: the DOM, scripts and other responses of the agency, storage, the agency's cookies, every
 * URL and Referer, and the console. @see spec §2.1, §2.3, §5 (experience) rules 4 and 6
 */
import type { RunFacts } from '../run/facts.js';
import { type Check, type Evidence, fail, pass } from './types.js';

type Source = 'DOM and storage' | 'responses' | 'cookies' | 'URLs' | 'Referer headers' | 'console';

/** Everything the browser held, as one text per source. */
function browserHeld(facts: RunFacts): Array<[Source, string]> {
  return [
    ['DOM and storage', facts.storage.map((item) => item.text).join('\n')],
    ['responses', facts.bodies.map((item) => item.text).join('\n')],
    ['cookies', facts.responses.flatMap((response) => response.setCookies).join('\n')],
    ['URLs', [...facts.requests.map((request) => request.url), ...facts.pages.map((page) => page.url)].join('\n')],
    ['Referer headers', facts.requests.map((request) => request.referer ?? '').join('\n')],
    ['console', facts.console.map((line) => line.text).join('\n')],
  ];
}

function secretCheck(id: string, title: string, spec: string, values: (facts: RunFacts) => string[], noun: string): Check {
  return {
    id, title, group: 'secrets', spec, kind: 'can_fail',
    evaluate(facts) {
      if (facts.pages.length === 0) return undefined;
      const secrets = [...new Set(values(facts).filter((value) => value.length >= 16))];
      if (secrets.length === 0) return undefined;
      const held = browserHeld(facts);
      const found: Evidence[] = [];
      for (const secret of secrets) {
        const places = held.filter(([, text]) => text.includes(secret)).map(([source]) => source);
        if (places.length) found.push({ label: `${noun} ${secret.slice(0, secret.indexOf('_', 3) + 1) || secret.slice(0, 4)}…${secret.slice(-4)} found in: ${places.join(', ')}` });
      }
      const searched = held.map(([source, text]) => `${source} (${Math.round(text.length / 1024)} KB)`).join(', ');
      return found.length
        ? fail(`${found.length} ${noun}(s) reached the browser (${found[0]!.label.split(' found in: ')[1]})`, found)
        : pass(`${secrets.length} ${noun}(s) searched for; none in ${searched}`);
    },
  };
}

export const SECRET_CHECKS: Check[] = [
  secretCheck('secrets.key_not_in_browser', 'The agency keys never reach the browser', '§2.1, §5 rule 6', (facts) => facts.secrets.keys.map((key) => key.secret), 'agency key'),
  secretCheck('secrets.session_token_not_in_browser', 'Session tokens never reach the browser or a URL', '§2.3, §5 rule 6', (facts) => facts.secrets.session_tokens, 'session token'),
  secretCheck(
    'secrets.verifier_not_in_browser',
    'code_verifier is kept on the server, never in the browser',
    '§5 rule 4',
    (facts) => [...facts.secrets.verifiers, ...facts.calls.flatMap((call) => (call.verifier ? [call.verifier] : []))],
    'code_verifier',
  ),
];
