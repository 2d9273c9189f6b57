/**
 * The brand's checklist: for each of the six sandbox scenarios, did this promotion's sandbox key
 * create a session and submit an entry. API coverage only, not visual approval.
 * @see spec §1 lifecycle 3 and 6
 */
import { SANDBOX_SCENARIOS, type Scenario } from '../sandbox.js';
import type { CoverageRow } from '../../store/coverage.js';

export interface ChecklistItem {
  scenario: Scenario;
  session_created: boolean;
  entry_submitted: boolean;
}

export interface Checklist {
  complete: boolean;
  items: ChecklistItem[];
  /** What is still to do, one line each, e.g. "won: submit an entry". */
  missing: string[];
}

export function checklistOf(coverage: CoverageRow[]): Checklist {
  const items = SANDBOX_SCENARIOS.map((scenario) => {
    const row = coverage.find((candidate) => candidate.scenario === scenario);
    return { scenario, session_created: Boolean(row?.session_created_at), entry_submitted: Boolean(row?.entry_submitted_at) };
  });
  const missing = items.flatMap((item) => [
    ...(item.session_created ? [] : [`${item.scenario}: create a sandbox session`]),
    ...(item.entry_submitted ? [] : [`${item.scenario}: submit an entry`]),
  ]);
  return { complete: missing.length === 0, items, missing };
}
