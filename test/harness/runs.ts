/** What the reference and the single-page agency's harness tests share: a run after an emulator reset, and what a clean run looks like. */
import { join } from 'node:path';
import { expect } from 'vitest';
import { CHECKS } from '../../harness/checks/registry.js';
import { exitCodeOf } from '../../harness/report/legend.js';
import type { Report } from '../../harness/report/types.js';
import type { VerifyOptions } from '../../harness/verify.js';
import type { Verdicts } from './recorded.js';
import type { HarnessWorld } from './world.js';

/** On plain-http loopback the cookie cannot be Secure (a warning), and screenshots await the brand's review. */
const NOT_PASSED_ON_LOOPBACK = ['callback.cookie_flags', 'review.screenshots'];

/** The check of the short run before a reset: fed by the sandbox previews and one production journey, whose won pack the run after the reset is handed again. */
export const BEFORE_RESET = ['journey.won_details'];

/**
 * A short verify (`--only` BEFORE_RESET, its reports in a folder of its own), `emulator reset` (the
 * same emulator, its world seeded again: no callback URLs, not approved, the same pack codes to hand
 * out, the agency still running), then the verify asked for.
 */
export async function verifyAfterReset(world: HarnessWorld, options: Partial<VerifyOptions>, last: Partial<VerifyOptions> = {}): Promise<{ before: Report; after: Report }> {
  const before = await world.verify({ ...options, only: BEFORE_RESET, out: join(world.folder, 'before-reset') });
  await world.reset();
  return { before, after: await world.verify({ ...options, ...last }) };
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
