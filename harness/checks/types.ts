/** What a check is and what it answers. DESIGN.md: a stable id, a status, and evidence. */
import type { RunFacts } from '../run/facts.js';

export const STATUSES = ['pass', 'fail', 'warn', 'manual', 'skipped'] as const;
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
  advisory: 'Advisory',
} as const;

export type Group = keyof typeof GROUPS;

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
  /** The verdict from the run's facts, or undefined when the run saw nothing to judge. */
  evaluate(facts: RunFacts): Verdict | undefined;
}

export const pass = (reason: string, evidence: Evidence[] = []): Verdict => ({ status: 'pass', reason, evidence });
export const fail = (reason: string, evidence: Evidence[] = []): Verdict => ({ status: 'fail', reason, evidence });
export const warn = (reason: string, evidence: Evidence[] = []): Verdict => ({ status: 'warn', reason, evidence });
