/** The callback page's rules, and the agency's logs. @see spec §4.3 callback page rules, §5 rule 4 */
import { LOOPBACK_HOSTS } from '../../emulator/wire-contract.js';
import { MAX_LOG_BYTES } from '../run/agency-log.js';
import { type RunFacts, originOf, redactUrl } from '../run/facts.js';
import { linesWithin } from './log-times.js';
import { issuedExchange, where } from './observed.js';
import { type Check, type Evidence, type Guidance, REFERENCE_AGENCY, fail, inconclusive, pass, warn } from './types.js';

const JOURNEY_PARAMS = ['service_request', 'service_code', 'state'];

/**
 * Whether the agency's cookies must be `Secure`: over https always, on any host (a deployed
 * preview, a tunnel); over plain http too, except on loopback, where a browser cannot keep a
 * Secure cookie and its absence is only a warning (local development).
 */
export function secureCookieRequired(agencyOrigin: string): boolean {
  const url = new URL(agencyOrigin);
  return url.protocol === 'https:' || !LOOPBACK_HOSTS.has(url.hostname);
}
const AGENCY_LOG = 'agency_log: the file the agency writes its request log to, readable by the harness';

export const CALLBACK_CHECKS: Check[] = [
  headerCheck('callback.no_store', 'Every callback response carries Cache-Control: no-store', { rules: ['callback-headers'], fix: 'Send Cache-Control: no-store on every response of the callback URL and the pages after it.', reference: `${REFERENCE_AGENCY}/http.ts` }, 'cache-control', (value) => /(^|[\s,])no-store([\s,]|$)/i.test(value), 'no-store'),
  headerCheck('callback.referrer_policy', 'Every callback response carries Referrer-Policy: same-origin', { rules: ['callback-headers'], fix: 'Send Referrer-Policy: same-origin on every response of the callback URL and the pages after it.', reference: `${REFERENCE_AGENCY}/http.ts` }, 'referrer-policy', (value) => ['same-origin', 'no-referrer'].includes(lastPolicy(value)), 'same-origin (or the stricter no-referrer)'),
  {
    id: 'callback.clean_url',
    title: 'After processing, the callback redirects at once to a clean URL',
    group: 'callback',
    spec: '§4.3 callback page rules',
    kind: 'can_fail',
    guidance: { rules: ['callback-clean-url'], fix: 'After handling service_request or service_code, redirect at once (303) to a URL without them.', reference: `${REFERENCE_AGENCY}/journey.ts` },
    evaluate(facts) {
      // After processing: the callbacks opened as issued whose own exchange created a session. A callback refused because a probe took its code is the probe's check's evidence, not this one's.
      const done = facts.journeys.filter((journey) => issuedExchange(facts, journey)?.answer?.session_created);
      if (done.length === 0) return undefined;
      const problems: Evidence[] = [];
      const evidence: Evidence[] = done.map((journey) => {
        const { status, location, landed } = journey.completion!;
        const redirected = status >= 300 && status < 400;
        const dirty = [landed, location ?? ''].some((url) => JOURNEY_PARAMS.some((name) => hasParam(url, name)));
        const item = { label: `${where(journey)}: the callback answered ${status}${location ? ` → ${redactUrl(location)}` : ''}, the browser landed on ${redactUrl(landed)}` };
        // A page that answers 200 and then hides the parameters from its address has had them in its URL while its scripts ran: not a redirect.
        if (!redirected) problems.push({ label: `${where(journey)}: the callback answered ${status} instead of redirecting` });
        else if (dirty) problems.push({ label: `${where(journey)}: the page after the callback still carries journey parameters` });
        return item;
      });
      return problems.length
        ? fail(problems[0]!.label, [problems[0]!, ...evidence])
        : pass(done.length, 'a redirect straight to a URL without service_code or state', evidence);
    },
  },
  {
    id: 'callback.no_third_party',
    title: "The agency's pages load nothing from third parties",
    group: 'callback',
    spec: '§4.3 callback page rules',
    kind: 'can_fail',
    guidance: { rules: ['callback-no-third-party'], fix: "Serve every script, style, font and image from your own origin; drop tag managers and CDNs from these pages.", reference: `${REFERENCE_AGENCY}/pages/layout.ts` },
    allowedBy: ['first_party_origins'],
    evaluate(facts) {
      if (facts.pages.length === 0) return undefined;
      const own = new Set([...facts.agencyOriginList(), facts.origins.emulator]);
      const configured = new Set(facts.config.first_party_origins.map((url) => new URL(url).origin));
      const elsewhere = facts.requests.filter((request) => /^(https?|wss?):/.test(request.url) && !own.has(originOf(request.url) ?? ''));
      const shown = (requests: typeof elsewhere) => [...new Set(requests.map((request) => `${request.resourceType} ${request.url.split('?')[0]}`))];
      const urls = shown(elsewhere.filter((request) => !configured.has(originOf(request.url) ?? '')));
      // What passed only because the config named its origin is shown, so the brand sees what it is asked to accept.
      const allowed = shown(elsewhere.filter((request) => configured.has(originOf(request.url) ?? ''))).map((url) => ({ label: `allowed by the config (first_party_origins): ${url}` }));
      if (urls.length) return fail(`the pages request ${urls.length} third-party resource(s): ${urls[0]}`, [{ label: urls[0]! }, ...urls.slice(1).map((url) => ({ label: url })), ...allowed]);
      return allowed.length
        ? pass(facts.pages.length, `${facts.pages.length} agency pages, ${facts.requests.length} requests, all to the agency or the service but ${allowed.length} resource(s) from origins the config counts as first party (first_party_origins: ${[...configured].join(', ')})`, allowed)
        : pass(facts.pages.length, `${facts.pages.length} agency pages, ${facts.requests.length} requests, all to the agency or the service`);
    },
  },
  {
    id: 'callback.cookie_flags',
    title: "The agency's cookies are HttpOnly, SameSite=Lax and Secure",
    group: 'callback',
    spec: '§5 (experience) rule 4',
    kind: 'can_fail',
    guidance: { rules: ['session-cookie-flags'], fix: 'Set the session cookie with HttpOnly, SameSite=Lax and Secure (Secure needs https).', reference: `${REFERENCE_AGENCY}/browser-sessions.ts` },
    evaluate(facts) {
      const cookies = new Map<string, string>();
      for (const response of facts.responses) for (const line of response.setCookies) if (!isDeletion(line)) cookies.set(`${line.split('=')[0]}|${flagsOf(line).join(',')}`, line);
      if (cookies.size === 0) return undefined;
      const secureRequired = secureCookieRequired(facts.origins.agency);
      const failures: string[] = [];
      const warnings: string[] = [];
      const evidence: Evidence[] = [];
      for (const line of cookies.values()) {
        const name = line.split('=')[0]!.trim();
        const flags = flagsOf(line);
        const sameSite = flags.find((flag) => flag.startsWith('samesite='))?.slice(9);
        evidence.push({ label: `${name}: ${flags.join('; ') || 'no attributes'}` });
        if (!flags.includes('httponly')) failures.push(`${name} is readable by page scripts (no HttpOnly)`);
        if (sameSite !== 'lax') failures.push(`${name} has SameSite=${sameSite ?? 'unset'}, not Lax`);
        if (!flags.includes('secure')) (secureRequired ? failures : warnings).push(`${name} is not Secure`);
      }
      if (failures.length) return fail(failures.join('; '), [{ label: failures.join('; ') }, ...evidence]);
      if (warnings.length) return warn(cookies.size, `${warnings.join('; ')}: accepted on plain-http loopback for local development only; deployed over https it must be Secure`, evidence);
      return pass(cookies.size, 'HttpOnly, SameSite=Lax, Secure', evidence);
    },
  },
  {
    id: 'logs.params_redacted',
    title: "service_request, service_code and state never appear in the agency's log",
    group: 'callback',
    spec: '§4.3 callback page rules',
    kind: 'can_fail',
    guidance: { rules: ['callback-logs-redacted'], fix: 'Redact the query string (service_request, service_code, state) before a URL reaches your log.', reference: `${REFERENCE_AGENCY}/logger.ts` },
    configure: AGENCY_LOG,
    evaluate(facts) {
      const values = new Map<string, string>();
      for (const journey of facts.journeys) {
        if (journey.serviceRequest) values.set(journey.serviceRequest, 'service_request');
        if (journey.issuedCallback) {
          const query = new URL(journey.issuedCallback).searchParams;
          for (const name of ['service_code', 'state']) if (query.get(name)) values.set(query.get(name)!, name);
        }
      }
      if (values.size === 0) return undefined;
      if (!facts.config.agency_log) return inconclusive("the harness cannot read the agency's log", AGENCY_LOG);
      if (!facts.agencyLog) return inconclusive(`the run did not read the agency log ${facts.config.agency_log}`, AGENCY_LOG);
      const { text, skipped } = facts.agencyLog;
      // Named as read: a log longer than the harness reads is read from its end, where this run's lines are.
      const file = skipped ? `${facts.agencyLog.file} (its end: the first ${skipped} bytes left unread)` : facts.agencyLog.file;
      if (text === undefined) return inconclusive(`the agency log ${file} cannot be read`, AGENCY_LOG);
      const lines = text.split('\n').filter((line) => line.trim());
      const leaks = [...values].flatMap(([value, name]) => {
        const line = lines.findIndex((text) => text.includes(value));
        return line === -1 ? [] : [{ label: `${name} value ${value.slice(0, 6)}… on line ${line + 1} of ${file}` }];
      });
      if (leaks.length) return fail(`${leaks.length} of ${values.size} journey values appear in the agency's log`, [leaks[0]!, ...leaks.slice(1)]);
      // A log proves redaction only if it holds this run's requests: an empty one, or one the agency stopped writing to, would pass any agency.
      if (lines.length === 0) return inconclusive(`the agency log ${file} is empty, so it shows none of this run's requests`, AGENCY_LOG);
      const window = runWindow(facts);
      const ofRun = window ? linesWithin(lines, window.from - LOG_CLOCK_SLACK_MS, window.until + LOG_CLOCK_SLACK_MS) : 0;
      if (ofRun === 0) return inconclusive(`none of the ${lines.length} lines of the agency log ${file} carries a time within this run, so it shows none of its requests`, `${AGENCY_LOG}, with a time on each line (epoch, ISO 8601 or Common Log Format)`);
      // Its first line read already of this run: the run's earlier lines are in the part left unread.
      if (skipped && window && linesWithin(lines.slice(0, 1), window.from - LOG_CLOCK_SLACK_MS, window.until + LOG_CLOCK_SLACK_MS) === 1) {
        return inconclusive(`the agency log ${file} holds this run's lines from its first line read on, so the run's earlier lines were left unread`, `${AGENCY_LOG}, a log smaller than ${MAX_LOG_BYTES / 1024 / 1024} MB (one started for the run)`);
      }
      // The log is the agency's own account: a copy written with the values cut out would pass too, and the reason says so.
      return pass(values.size, `none of ${values.size} journey values in the agency's log, ${ofRun} of whose ${lines.length} lines were written during this run; the log is the agency's own claim (one written with the values cut out passes too): read its logging code`, [{ label: file }]);
    },
  },
];

/** How far the agency's clock and its log's writes may be from the harness's: a line this much before or after the run still counts as of it. */
const LOG_CLOCK_SLACK_MS = 120_000;

/** From the first to the last thing the browser saw, on the harness's clock; undefined when it saw nothing. */
function runWindow(facts: RunFacts): { from: number; until: number } | undefined {
  let window: { from: number; until: number } | undefined;
  for (const { at } of [...facts.pages, ...facts.requests]) window = { from: Math.min(at, window?.from ?? at), until: Math.max(at, window?.until ?? at) };
  return window;
}

function headerCheck(id: string, title: string, guidance: Guidance, header: string, ok: (value: string) => boolean, expected: string): Check {
  return {
    id, title, group: 'callback', spec: '§4.3 callback page rules', kind: 'can_fail', guidance,
    evaluate(facts) {
      const responses = facts.responses.filter((response) => facts.isCallback(response.url));
      if (responses.length === 0) return undefined;
      const bad = responses.filter((response) => !ok(response.headers[header] ?? ''));
      const shown = (response: (typeof responses)[number]) => ({ label: `${response.status} ${redactUrl(response.url)}: ${header}: ${response.headers[header] ?? '(none)'}` });
      return bad.length
        ? fail(`${bad.length} of ${responses.length} callback responses lack ${header}: ${expected} (e.g. "${bad[0]!.headers[header] ?? 'none'}")`, [shown(bad[0]!), ...bad.slice(1, 10).map(shown)])
        : pass(responses.length, `${responses.length} callback responses, each with ${header} as ${expected} asks: ${sentValues(responses.map((response) => response.headers[header] ?? ''))}`, responses.slice(0, 10).map(shown));
    },
  };
}

/** The values the agency sent, quoted, each with how many responses carried it: `"no-referrer" (3)`. */
function sentValues(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, count]) => `"${value}" (${count})`).join(', ');
}

/** The policy a browser applies: the last one it understands. */
function lastPolicy(value: string): string {
  return value.split(',').map((part) => part.trim().toLowerCase()).filter(Boolean).at(-1) ?? '';
}

function flagsOf(line: string): string[] {
  return line.split(';').slice(1).map((part) => part.trim().toLowerCase().replace(/\s*=\s*/, '=')).filter((flag) => flag && !/^(path|domain|expires|max-age)=/.test(flag));
}

function isDeletion(line: string): boolean {
  return /;\s*max-age=0/i.test(line) || /;\s*expires=thu, 01 jan 1970/i.test(line);
}

function hasParam(url: string, name: string): boolean {
  try {
    return new URL(url, 'http://x').searchParams.has(name);
  } catch {
    return false;
  }
}
