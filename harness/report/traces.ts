/**
 * Which scenarios' traces a failed check links to: those its reason names (a check's reason is the
 * violation it saw, `<scenario>[/<journey>]: …`), so a brand opens the trace of the journey that
 * failed, not of every scenario feeding the check. A reason naming none links them all.
 */
import type { Scenario } from '../scenarios/schema.js';

export function scenariosBehindFailure(reason: string, feeders: readonly Scenario[]): Scenario[] {
  const named = feeders.filter((scenario) => new RegExp(`(?<![\\w-])${scenario.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(reason));
  return named.length > 0 ? named : [...feeders];
}
