/**
 * The agency's own entry endpoint, probed with the request its consent form sends
 * (run/endpoint-probe.ts). @see spec §4.3 (the agency protects its entry endpoint against CSRF and rate-limits it)
 */
import type { ObservedCall } from '../emulator-client/client.js';
import type { EndpointProbe } from '../run/endpoint-probe-facts.js';
import type { RunFacts } from '../run/facts.js';
import { isEntry } from './observed.js';
import { type Check, type Evidence, type Guidance, REFERENCE_AGENCY, type Setting, type Verdict, fail, inconclusive, pass } from './types.js';

const FIND_IT = 'entry_endpoint.path: the path the consent form posts to, when the page sends more than one request; markers.entry_form: the form, when its terms box is not recognised';
/** What finds the consent form's request: every endpoint check is probed with it. */
const FINDS_IT: readonly Setting[] = ['markers.entry_form', 'markers.consent_open', 'markers.consent_step', 'entry_endpoint.path'];

/** Inconclusive, with why, when the run caught no request to probe with. */
function endpointCheck(id: string, title: string, guidance: Guidance, allowedBy: readonly Setting[], judge: (facts: RunFacts, probes: EndpointProbe[]) => Verdict): Check {
  return {
    id, title, group: 'endpoint', spec: '§4.3', kind: 'can_fail', configure: FIND_IT, guidance, allowedBy,
    evaluate(facts) {
      if (facts.endpoint.length === 0) return undefined;
      const probes = facts.endpoint.filter((probe) => probe.caught);
      return probes.length ? judge(facts, probes) : inconclusive(`the entry endpoint was not found: ${facts.endpoint[0]!.missed ?? 'no request caught'}`, FIND_IT);
    },
  };
}

/** Entry calls of the probe's pack the service saw after observed call `after`, up to `until`. */
function enteredBetween(facts: RunFacts, probe: EndpointProbe, after: number, until = Number.POSITIVE_INFINITY): ObservedCall[] {
  return facts.callsOf(probe.pack).filter((call) => isEntry(call) && call.seq > after && call.seq <= until);
}

export const ENDPOINT_CHECKS: Check[] = [
  endpointCheck('endpoint.csrf', "The agency's entry endpoint refuses its request without the CSRF token, or with a forged one, from another site, and lets no other site read its answers", { rules: ['agency-endpoint-protected'], fix: 'Require a per-session CSRF token on your entry endpoint and refuse requests from other origins.', reference: `${REFERENCE_AGENCY}/entry.ts` }, FINDS_IT, (facts, probes) => {
    const evidence: Evidence[] = [];
    const problems: Evidence[] = [];
    let controls = 0;
    for (const probe of probes) {
      const { method, path, tokenParts } = probe.caught!;
      evidence.push({ label: `${probe.confirms ? 'the page confirming the consent form once sent' : 'the consent form'} sends ${method} ${path}; its token in ${tokenParts.join(', ') || 'nothing the harness could name (sent from another site as caught)'}` });
      for (const [index, attempt] of probe.csrf.entries()) {
        const entered = enteredBetween(facts, probe, attempt.after, probe.csrf[index + 1]?.after ?? probe.burstAfter);
        const item = { label: `${method} ${path} from another site, the token ${attempt.variant}: HTTP ${attempt.status}; ${entered.length} entry call(s) reached the service` };
        evidence.push(item);
        if (entered.length) problems.push({ ...item, label: `the request with its CSRF token ${attempt.variant} was entered (HTTP ${attempt.status})` });
        // A page of another site that may read the answer with the collector's cookies reads the form's token too: no CSRF defence holds.
        if (attempt.readableBy) problems.push({ label: `another site may read its answers with the collector's cookies: the request from another site, the token ${attempt.variant}, was answered Access-Control-Allow-Origin: ${attempt.readableBy} with Access-Control-Allow-Credentials: true` });
      }
      // The control: the same request with its own token enters, so a refused forgery means something.
      const own = probe.burstAfter === undefined ? [] : enteredBetween(facts, probe, probe.burstAfter);
      if (own.length) {
        controls += 1;
        evidence.push({ label: `control: the same request with its own token reached the service (${own.length} entry call(s))` });
      }
    }
    if (problems.length) return fail(problems[0]!.label, [problems[0]!, ...evidence]);
    if (controls === 0) return inconclusive("the request replayed with its own token did not reach the service either, so a refused forgery proves nothing", FIND_IT, evidence);
    return pass(probes.reduce((total, probe) => total + probe.csrf.length, 0), 'refused without a valid token; nothing reached the service', evidence);
  }),
  endpointCheck('endpoint.rate_limited', "The agency's entry endpoint is rate-limited", { rules: ['agency-endpoint-protected'], fix: 'Rate-limit your entry endpoint per browser session and answer 429 beyond it.', reference: `${REFERENCE_AGENCY}/entry.ts` }, [...FINDS_IT, 'entry_endpoint.max_attempts'], (_facts, all) => {
    // The consent form's own endpoint takes the burst; a confirming page's request is sent once.
    const probes = all.filter((probe) => !probe.confirms);
    const posts = (probe: EndpointProbe) => probe.burst.length + probe.csrf.length;
    const evidence = probes.map((probe) => ({ label: `${posts(probe)} requests from one browser: ${summary(probe.burst)}` }));
    const unlimited = probes.findIndex((probe) => !probe.burst.includes(429));
    return unlimited >= 0
      ? fail(`${posts(probes[unlimited]!)} requests in a row from one browser, none refused with 429`, [evidence[unlimited]!, ...evidence])
      : pass(probes.length, `429 after ${probes[0]!.burst.indexOf(429) + 1 + probes[0]!.csrf.length} requests`, evidence);
  }),
];

function summary(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count}× ${status}`).join(', ');
}
