/**
 * Turns the run's facts into the checklist, and the one place the evidence rules are enforced
 * (harness/README.md, "Evidence", and the report's header say the same):
 *
 * - a check passes (or warns, or asks for a manual review) only on positive evidence: at least one
 *   observation of the thing it judges, with every scenario that feeds it run to its end (one
 *   that stopped or could not start may have held the violation);
 * - it fails only on evidence of a violation, shown in its evidence;
 * - anything else is `inconclusive`, with why and what to configure: nothing observed, a scenario
 *   that stopped or could not start (no approval, no preview), a check the harness could not
 *   evaluate. A brand must never read an inconclusive check as approval.
 */
import type { RunFacts, ScenarioOutcome } from '../run/facts.js';
import type { Scenario } from '../scenarios/schema.js';
import { allowancesOf } from './allowances.js';
import type { Check, Evidence, Group, Status, Verdict } from './types.js';

export interface CheckReport {
  id: string;
  title: string;
  group: Group;
  spec: string;
  status: Status;
  reason: string;
  evidence: Evidence[];
  /** With `inconclusive`: what to configure or run so the check can judge. */
  configure?: string;
  /** The config's settings that can have changed this verdict (allowances.ts): shown beside it in every report. */
  allowed_by?: string[];
}

export function evaluateChecks(facts: RunFacts, checks: readonly Check[], scenarios: readonly Scenario[]): CheckReport[] {
  const allowances = allowancesOf(facts.config, checks);
  return checks.map((check) => {
    const { id, title, group, spec } = check;
    const { observed: _observed, ...verdict } = verdictOf(facts, check, scenarios.filter((scenario) => scenario.feeds.includes(id)));
    const allowedBy = allowances.filter((allowance) => allowance.checks.includes(id)).map((allowance) => allowance.setting);
    return { id, title, group, spec, ...verdict, ...(allowedBy.length ? { allowed_by: allowedBy } : {}) };
  });
}

function verdictOf(facts: RunFacts, check: Check, feeders: readonly Scenario[]): Verdict {
  if (feeders.length === 0) return unjudged('no scenario of this run feeds it', 'a scenario that feeds it: one was disabled or replaced in the config ("disable_scenarios", "scenarios")');
  const outcomes = feeders.flatMap((scenario) => facts.outcomes.get(scenario.id) ?? []);
  let verdict: Verdict | undefined;
  try {
    verdict = check.evaluate(facts);
  } catch (error) {
    return unjudged(`the harness could not evaluate it: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (verdict?.status === 'fail' && verdict.evidence.length > 0) return verdict;
  const context = missing(outcomes);
  if (verdict && verdict.status !== 'fail' && verdict.status !== 'inconclusive' && (verdict.observed ?? 0) >= 1) {
    if (!context) return verdict;
    return unjudged(`its evidence is incomplete (${verdict.status} on what was seen: ${verdict.reason}); ${context}`, check.configure, verdict.evidence);
  }
  const why = verdict?.status === 'inconclusive' ? verdict : undefined;
  const reason = why?.reason ?? context ?? 'this run observed nothing it judges';
  return unjudged(why && context ? `${reason}; ${context}` : reason, why?.configure ?? check.configure, verdict?.evidence ?? []);
}

function unjudged(reason: string, configure?: string, evidence: Evidence[] = []): Verdict {
  return { status: 'inconclusive', reason, evidence, ...(configure ? { configure } : {}) };
}

/** Why the scenarios feeding a check may have left it without (all of its) evidence: skipped, or stopped early. */
function missing(outcomes: readonly ScenarioOutcome[]): string | undefined {
  const skipped = outcomes.find((outcome) => outcome.status === 'skipped');
  if (skipped && outcomes.every((outcome) => outcome.status === 'skipped')) return `its scenarios did not run: ${skipped.error ?? 'skipped'}`;
  const stopped = outcomes.find((outcome) => outcome.status === 'errored');
  if (stopped) return `scenario ${stopped.id} stopped before giving evidence: ${stopped.error}`;
  return skipped ? `scenario ${skipped.id} did not run: ${skipped.error ?? 'skipped'}` : undefined;
}
