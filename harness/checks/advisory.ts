/** Accessibility (axe-core: its violations of the configured impacts fail the run) and screenshots for the brand's review. @see spec §1 lifecycle 5 */
import { type Check, REFERENCE_AGENCY, fail, inconclusive, manual, pass, warn } from './types.js';
import type { Capture } from '../run/facts.js';

/** Which states axe-core could not analyse, of all the run captured, and why the first could not. */
function unanalysed(missed: Capture[], states: Capture[]): string {
  return `${missed.length} of ${states.length} states could not be analysed (${missed.map((capture) => capture.key).join(', ')}): ${missed[0]!.axeError ?? 'axe-core did not run on it'}`;
}

export const ADVISORY_CHECKS: Check[] = [
  {
    id: 'a11y.axe',
    title: 'axe-core finds no accessibility violations on any state: those of the impacts a11y.fail_on names (default critical) fail the run, others warn',
    group: 'advisory',
    spec: '§1 lifecycle 5',
    kind: 'can_fail',
    guidance: { rules: ['brand-review'], fix: 'Fix the violations axe-core lists for each state (labels, contrast, landmarks).', reference: `${REFERENCE_AGENCY}/pages/layout.ts` },
    allowedBy: ['a11y.fail_on'],
    evaluate(facts) {
      const states = [...facts.captures.values()];
      const analysed = states.filter((capture) => capture.axe);
      if (analysed.length === 0) return facts.axeProblem ? inconclusive(facts.axeProblem) : states.length ? inconclusive(unanalysed(states, states)) : undefined;
      const failOn = new Set<string>(facts.config.a11y.fail_on);
      const violations = analysed.flatMap((capture) => capture.axe!.map((violation) => ({ capture, violation })));
      const evidence = violations.map(({ capture, violation }) => ({
        label: `${capture.key}: ${violation.id} (${violation.impact ?? 'unknown'}, ${violation.nodes} element(s)): ${violation.help}`,
        ...(capture.screenshots.mobile ? { path: capture.screenshots.mobile } : {}),
      }));
      const blocking = violations.filter(({ violation }) => failOn.has(violation.impact ?? ''));
      // The scenarios named in the reason are those whose traces the report keeps (report/traces.ts): where the violations were seen, not every one axe ran in.
      const seenIn = [...new Set(blocking.map(({ capture }) => capture.scenario))].join(', ');
      if (blocking.length) return fail(`${blocking.length} ${[...failOn].join('/')} violation(s), e.g. ${blocking[0]!.violation.id} on ${blocking[0]!.capture.key}; seen in ${seenIn}`, [evidence[violations.indexOf(blocking[0]!)]!, ...evidence]);
      // A state that vanished before axe saw it may hold the violation: no verdict on what was not analysed.
      const missed = states.filter((capture) => !capture.axe);
      if (missed.length) return inconclusive(unanalysed(missed, states), undefined, evidence);
      if (violations.length) return warn(analysed.length, `${violations.length} violation(s) on ${new Set(violations.map(({ capture }) => capture.key)).size} state(s), e.g. ${violations[0]!.violation.id}`, evidence);
      return pass(analysed.length, `${analysed.length} states, no violations`);
    },
  },
  {
    id: 'review.screenshots',
    title: "Mobile and desktop screenshots of every state, for the brand's visual review",
    group: 'advisory',
    spec: '§1 lifecycle 5',
    kind: 'manual_only',
    guidance: { rules: ['brand-review'], fix: 'Nothing to fix: the brand reviews the screenshots by hand.', reference: `${REFERENCE_AGENCY}/pages/styles.ts` },
    evaluate(facts) {
      const shots = [...facts.captures.values()].filter((capture) => capture.screenshots.mobile || capture.screenshots.desktop);
      if (shots.length === 0) return undefined;
      const evidence = shots.flatMap((capture) =>
        (['mobile', 'desktop'] as const).flatMap((size) => (capture.screenshots[size] ? [{ label: `${capture.key} (${size})`, path: capture.screenshots[size], data: { state: capture.key, size } }] : [])),
      );
      return manual(shots.length, `${evidence.length} screenshots of ${shots.length} states to review: responsive layout, legal copy, failure states (screenshots/ in the report folder)`, evidence);
    },
  },
];
