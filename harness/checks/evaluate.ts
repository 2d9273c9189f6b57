/**
 * Turns the run's facts into the checklist. A check no selected scenario feeds is skipped; a
 * check whose scenario stopped before giving it evidence fails with the scenario's error (an
 * approval needs evidence); one whose scenarios could not start (no approval) is skipped.
 */
import type { RunFacts } from '../run/facts.js';
import type { Scenario } from '../scenarios/schema.js';
import type { Check, Evidence, Group, Status, Verdict } from './types.js';

export interface CheckReport {
  id: string;
  title: string;
  group: Group;
  spec: string;
  status: Status;
  reason: string;
  evidence: Evidence[];
}

export function evaluateChecks(facts: RunFacts, checks: readonly Check[], scenarios: readonly Scenario[]): CheckReport[] {
  return checks.map((check) => {
    const { id, title, group, spec } = check;
    return { id, title, group, spec, ...verdictOf(facts, check, scenarios.filter((scenario) => scenario.feeds.includes(id))) };
  });
}

function verdictOf(facts: RunFacts, check: Check, feeders: readonly Scenario[]): Verdict {
  const outcomes = feeders.flatMap((scenario) => facts.outcomes.get(scenario.id) ?? []);
  if (outcomes.length === 0) return { status: 'skipped', reason: 'no scenario of this run feeds it', evidence: [] };
  if (outcomes.every((outcome) => outcome.status === 'skipped')) return { status: 'skipped', reason: outcomes[0]!.error ?? 'its scenarios did not run', evidence: [] };
  let verdict: Verdict | undefined;
  try {
    verdict = check.evaluate(facts);
  } catch (error) {
    return { status: 'fail', reason: `the harness could not evaluate it: ${error instanceof Error ? error.message : String(error)}`, evidence: [] };
  }
  if (verdict) return verdict;
  const errored = outcomes.find((outcome) => outcome.status === 'errored');
  if (errored) return { status: 'fail', reason: `not checked: scenario ${errored.id} stopped at ${errored.error}`, evidence: [{ label: `scenario ${errored.id}`, data: errored }] };
  return { status: 'skipped', reason: 'this run saw nothing to check', evidence: [] };
}
