/** What the reference and the single-page agency's harness tests share: runs against one emulator, and what a clean run looks like. */
import { expect } from 'vitest';
import { CHECKS } from '../../harness/checks/registry.js';
import { exitCodeOf } from '../../harness/report/legend.js';
import type { Report } from '../../harness/report/types.js';
import type { VerifyOptions } from '../../harness/verify.js';
import type { HarnessWorld } from './world.js';

/** `runs` verifies in a row against one emulator, reset (not restarted) between them; `optionsOf` gets the run's number from 1. */
export async function verifyRuns(world: HarnessWorld, runs: number, optionsOf: (run: number) => Partial<VerifyOptions>): Promise<Report[]> {
  const reports: Report[] = [];
  for (let run = 1; run <= runs; run += 1) {
    if (run > 1) await world.reset();
    reports.push(await world.verify(optionsOf(run)));
  }
  return reports;
}

/** Each run: every check reported, none failed or inconclusive, exit 0. */
export function expectEveryCheckPassed(reports: Report[]): void {
  for (const [index, report] of reports.entries()) {
    const notPassed = report.checks.filter((check) => check.status !== 'pass').map((check) => `${check.id}: ${check.status} (${check.reason})`);
    // On plain-http loopback the cookie cannot be Secure (a warning), and screenshots await the brand's review.
    expect(notPassed.map((line) => line.split(':')[0]), `run ${index + 1}: ${notPassed.join('; ')}`).toEqual(['callback.cookie_flags', 'review.screenshots']);
    expect(exitCodeOf(report.summary), `run ${index + 1}`).toBe(0);
    expect(report.checks.map((check) => check.id)).toEqual(CHECKS.map((check) => check.id));
  }
}
