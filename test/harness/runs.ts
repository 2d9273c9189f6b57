/** What the reference and the single-page agency's harness tests share: runs against one emulator, and what a clean run looks like. */
import { expect } from 'vitest';
import { CHECKS } from '../../harness/checks/registry.js';
import { exitCodeOf } from '../../harness/report/legend.js';
import type { Report } from '../../harness/report/types.js';
import type { VerifyOptions } from '../../harness/verify.js';
import type { Verdicts } from './recorded.js';
import type { HarnessWorld } from './world.js';

/** On plain-http loopback the cookie cannot be Secure (a warning), and screenshots await the brand's review. */
const NOT_PASSED_ON_LOOPBACK = ['callback.cookie_flags', 'review.screenshots'];

/** `runs` verifies in a row against one emulator, reset (not restarted) between them; `optionsOf` gets the run's number from 1. */
export async function verifyRuns(world: HarnessWorld, runs: number, optionsOf: (run: number) => Partial<VerifyOptions>): Promise<Report[]> {
  const reports: Report[] = [];
  for (let run = 1; run <= runs; run += 1) {
    if (run > 1) await world.reset();
    reports.push(await world.verify(optionsOf(run)));
  }
  return reports;
}

/**
 * What keeps a run of the checks `only` (none: every check) from being clean: a check reported
 * that it is not for, or not reported; one not passed, but the two that cannot pass on loopback
 * (which must not); an exit code other than 0.
 */
export function problemsOf(run: Verdicts, only: readonly string[] = []): string[] {
  const ids = CHECKS.map(({ id }) => id).filter((id) => only.length === 0 || only.includes(id));
  const reported = run.checks.map(({ id }) => id);
  const problems = run.checks.filter((check) => (check.status === 'pass') === NOT_PASSED_ON_LOOPBACK.includes(check.id)).map((check) => `${check.id}: ${check.status} (${check.reason})`);
  if (reported.join() !== ids.join()) problems.push(`checks reported: ${reported.join(', ')}; expected: ${ids.join(', ')}`);
  if (exitCodeOf(run.summary) !== 0) problems.push(`exit ${exitCodeOf(run.summary)}`);
  return problems;
}

/** Each run: every check of `only` (none: every check) reported and passed, but the two on loopback; exit 0. */
export function expectEveryCheckPassed(runs: Verdicts[], only?: readonly string[]): void {
  for (const [index, run] of runs.entries()) expect(problemsOf(run, only), `run ${index + 1}`).toEqual([]);
}
