/**
 * What a check is and what it answers. A check is one object: its stable id, its group, how it
 * judges, what the report tells an agency about it (guidance) and the config's settings that can
 * change its verdict (allowedBy). Each answers a status and evidence. The evidence rules (a pass
 * needs an observation, a fail needs evidence of the violation, anything else is inconclusive) are
 * enforced in one place, evaluate.ts; these helpers only shape verdicts.
 */
import type { Config } from '../config.js';
import type { RunFacts } from '../run/facts.js';

/** `inconclusive`: the run could not judge the check; the reason says why and what to configure. */
export const STATUSES = ['pass', 'fail', 'warn', 'manual', 'inconclusive'] as const;
export type Status = (typeof STATUSES)[number];

/** One piece of evidence: what was seen, and where to look (a file in the report folder) when there is one. */
export interface Evidence {
  label: string;
  /** A file under the report folder: screenshot, trace, or the check's evidence JSON. */
  path?: string;
  data?: unknown;
}

export interface Verdict {
  status: Status;
  /** One line: why. */
  reason: string;
  evidence: Evidence[];
  /** How many times the run observed the thing judged: a pass, warn or manual review needs at least one. */
  observed?: number;
  /** With `inconclusive`: what to configure (or run) so the check can judge next time. */
  configure?: string;
}

/** The checklist's sections, in the order the report shows them. */
export const GROUPS = {
  coverage: 'API coverage',
  journey: 'Journey',
  callback: 'Callback hygiene',
  pkce: 'PKCE and state',
  secrets: 'Secrets',
  entry: 'Entry',
  consent: 'Terms and consent',
  behaviour: 'Behaviour',
  endpoint: "The agency's entry endpoint",
  // Named for what its checks do to the verdict: a11y.axe fails on the impacts a11y.fail_on names, the screenshots never do.
  advisory: 'Accessibility (its failures fail the run) and visual review',
} as const;

export type Group = keyof typeof GROUPS;

/** Where the reference agency's files are, relative to the package root: each check's guidance names the one that does it right. */
export const REFERENCE_AGENCY = 'fixtures/agency-reference';

/** What the report tells an agency about a check besides its verdict. */
export interface Guidance {
  /** The rules of docs/rules.md it verifies, by their ids there (its anchors). */
  rules: string[];
  /** How to fix a failure, in one line. */
  fix: string;
  /** The reference agency's file that does it right, relative to the package root. */
  reference: string;
}

/**
 * A setting of the config that can change a verdict when it differs from the default
 * (allowances.ts): a marker by its name, `vocabulary` for the words of any of its categories.
 */
export type Setting = 'first_party_origins' | `markers.${keyof Config['markers']}` | 'vocabulary' | 'a11y.fail_on' | 'entry_endpoint.path' | 'entry_endpoint.max_attempts';

export interface Check {
  id: string;
  title: string;
  group: Group;
  /** The rule, e.g. "§4.3 step 6". */
  spec: string;
  /**
   * `can_fail`: tied to at least one defect of the reference agency that makes it fail (the
   * mapping test enforces it). `manual_only`: a review the brand does by hand; it never fails.
   */
  kind: 'can_fail' | 'manual_only';
  /** What to configure when the run observed nothing to judge (the README's "For an agency that never saw our markers"). */
  configure?: string;
  guidance: Guidance;
  /** The settings that can change its verdict: each one the config sets is shown beside it in every report (allowances.ts). None when absent. */
  allowedBy?: readonly Setting[];
  /** The verdict from the run's facts, or undefined when the run saw nothing to judge. */
  evaluate(facts: RunFacts): Verdict | undefined;
}

/** At least one item: a failure always shows what was seen. */
export type Violations = [Evidence, ...Evidence[]];

export const pass = (observed: number, reason: string, evidence: Evidence[] = []): Verdict => ({ status: 'pass', observed, reason, evidence });
export const warn = (observed: number, reason: string, evidence: Evidence[] = []): Verdict => ({ status: 'warn', observed, reason, evidence });
export const manual = (observed: number, reason: string, evidence: Evidence[] = []): Verdict => ({ status: 'manual', observed, reason, evidence });
export const fail = (reason: string, evidence: Violations): Verdict => ({ status: 'fail', reason, evidence });
export const inconclusive = (reason: string, configure?: string, evidence: Evidence[] = []): Verdict => ({ status: 'inconclusive', reason, evidence, ...(configure ? { configure } : {}) });

