/** The agency's own entry endpoint, probed when the config names it. @see spec §4.3 */
import type { EndpointProbe, RunFacts } from '../run/facts.js';
import { isEntry } from './observed.js';
import { type Check, type Evidence, type Verdict, fail, pass } from './types.js';

const NOT_CONFIGURED = 'name the agency\'s entry endpoint in harness.config.json ("entry_endpoint": {"path": "/entry"}) to probe it';

/** Skipped, with how to configure it, when the run probed no endpoint because the config names none. */
function endpointCheck(id: string, title: string, judge: (facts: RunFacts, probes: EndpointProbe[]) => Verdict): Check {
  return {
    id, title, group: 'endpoint', spec: '§4.3', kind: 'can_fail',
    evaluate(facts) {
      if (facts.endpoint.length === 0) return undefined;
      const probes = facts.endpoint.filter((probe) => probe.configured);
      return probes.length ? judge(facts, probes) : { status: 'skipped', reason: NOT_CONFIGURED, evidence: [] };
    },
  };
}

export const ENDPOINT_CHECKS: Check[] = [
  endpointCheck('endpoint.csrf', "The agency's entry endpoint refuses a form without its CSRF token", (facts, probes) => {
    const evidence: Evidence[] = [];
    const problems: string[] = [];
    for (const probe of probes) {
      for (const [index, attempt] of probe.csrf.entries()) {
        const until = probe.csrf[index + 1]?.at ?? attempt.at + 2000;
        const entered = facts.callsOf(probe.pack).filter((call) => isEntry(call) && call.at >= attempt.at - 50 && call.at < until);
        evidence.push({ label: `POST ${probe.path} with the token ${attempt.variant}: HTTP ${attempt.status}; ${entered.length} entry call(s) reached the service` });
        if (entered.length) problems.push(`a form with its CSRF token ${attempt.variant} was entered (HTTP ${attempt.status})`);
      }
    }
    return problems.length ? fail(problems[0]!, evidence) : pass('refused; nothing reached the service', evidence);
  }),
  endpointCheck('endpoint.rate_limited', "The agency's entry endpoint is rate-limited", (_facts, probes) => {
    const posts = (probe: EndpointProbe) => probe.burst.length + probe.csrf.length;
    const evidence = probes.map((probe) => ({ label: `${posts(probe)} posts from one browser: ${summary(probe.burst)}` }));
    const unlimited = probes.find((probe) => !probe.burst.includes(429));
    return unlimited
      ? fail(`${posts(unlimited)} posts in a row from one browser, none refused with 429`, evidence)
      : pass(`429 after ${probes[0]!.burst.indexOf(429) + 1 + probes[0]!.csrf.length} posts`, evidence);
  }),
];

function summary(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count}× ${status}`).join(', ');
}
