/** The agency's own entry endpoint, and the advisory checks: axe-core and screenshots. @see spec §4.3, §1 lifecycle 5 */
import { isEntry } from './observed.js';
import { type Check, type Evidence, fail, pass, warn } from './types.js';
import { shownPath } from '../paths.js';

const NOT_CONFIGURED = 'name the agency\'s entry endpoint in harness.config.json ("entry_endpoint": {"path": "/entry"}) to probe it';

export const ADVISORY_CHECKS: Check[] = [
  {
    id: 'endpoint.csrf',
    title: "The agency's entry endpoint refuses a form without its CSRF token",
    group: 'endpoint',
    spec: '§4.3',
    kind: 'can_fail',
    evaluate(facts) {
      if (facts.endpoint.length === 0) return undefined;
      const probes = facts.endpoint.filter((probe) => probe.configured);
      if (probes.length === 0) return { status: 'skipped', reason: NOT_CONFIGURED, evidence: [] };
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
    },
  },
  {
    id: 'endpoint.rate_limited',
    title: "The agency's entry endpoint is rate-limited",
    group: 'endpoint',
    spec: '§4.3',
    kind: 'can_fail',
    evaluate(facts) {
      if (facts.endpoint.length === 0) return undefined;
      const probes = facts.endpoint.filter((probe) => probe.configured);
      if (probes.length === 0) return { status: 'skipped', reason: NOT_CONFIGURED, evidence: [] };
      const evidence = probes.map((probe) => ({ label: `${probe.burst.length + probe.csrf.length} posts from one browser: ${summary(probe.burst)}` }));
      const unlimited = probes.filter((probe) => !probe.burst.includes(429));
      return unlimited.length
        ? fail(`${unlimited[0]!.burst.length + unlimited[0]!.csrf.length} posts in a row from one browser, none refused with 429`, evidence)
        : pass(`429 after ${probes[0]!.burst.indexOf(429) + 1 + probes[0]!.csrf.length} posts`, evidence);
    },
  },
  {
    id: 'a11y.axe',
    title: 'axe-core finds no accessibility violations on any state (advisory)',
    group: 'advisory',
    spec: '§1 lifecycle 5',
    kind: 'can_fail',
    evaluate(facts) {
      const analysed = [...facts.captures.values()].filter((capture) => capture.axe);
      if (analysed.length === 0) return undefined;
      const failOn = new Set<string>(facts.config.a11y.fail_on);
      const violations = analysed.flatMap((capture) => capture.axe!.map((violation) => ({ capture, violation })));
      const evidence = violations.map(({ capture, violation }) => ({
        label: `${capture.key}: ${violation.id} (${violation.impact ?? 'unknown'}, ${violation.nodes} element(s)): ${violation.help}`,
        ...(capture.screenshots.mobile ? { path: capture.screenshots.mobile } : {}),
      }));
      const blocking = violations.filter(({ violation }) => failOn.has(violation.impact ?? ''));
      if (blocking.length) return fail(`${blocking.length} ${[...failOn].join('/')} violation(s), e.g. ${blocking[0]!.violation.id} on ${blocking[0]!.capture.key}`, evidence);
      if (violations.length) return warn(`${violations.length} violation(s) on ${new Set(violations.map(({ capture }) => capture.key)).size} state(s), e.g. ${violations[0]!.violation.id}`, evidence);
      return pass(`${analysed.length} states, no violations`);
    },
  },
  {
    id: 'review.screenshots',
    title: "Mobile and desktop screenshots of every state, for the brand's visual review",
    group: 'advisory',
    spec: '§1 lifecycle 5',
    kind: 'manual_only',
    evaluate(facts) {
      const shots = [...facts.captures.values()].filter((capture) => capture.screenshots.mobile || capture.screenshots.desktop);
      if (shots.length === 0) return undefined;
      const evidence = shots.flatMap((capture) =>
        (['mobile', 'desktop'] as const).flatMap((size) => (capture.screenshots[size] ? [{ label: `${capture.key} (${size})`, path: capture.screenshots[size] }] : [])),
      );
      return { status: 'manual', reason: `${evidence.length} screenshots of ${shots.length} states to review: responsive layout, legal copy, failure states (folder ${shownPath(facts.outDir)}/screenshots)`, evidence };
    },
  },
];

function summary(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count}× ${status}`).join(', ');
}
