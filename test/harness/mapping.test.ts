/** The mapping is complete: every check that can fail is tied to a defect that makes it fail, and every defect names a check. */
import { expect, test } from 'vitest';
import { DEFECTS } from '../../fixtures/agency-reference/defects.js';
import { CHECKS, CHECK_IDS } from '../../harness/checks/registry.js';
import { BUILT_IN_SCENARIOS, loadScenarios } from '../../harness/scenarios/load.js';

test('every check that can fail has a defect of the reference agency tied to it', () => {
  const proven = new Set<string>(DEFECTS.map((defect) => defect.check));
  expect(CHECKS.filter((check) => check.kind === 'can_fail' && !proven.has(check.id)).map((check) => check.id)).toEqual([]);
});

test('every defect names a check the harness has', () => {
  expect(DEFECTS.filter((defect) => !CHECK_IDS.has(defect.check)).map((defect) => defect.name)).toEqual([]);
});

test('the only checks without a defect are the brand\'s manual review, which never fails', () => {
  expect(CHECKS.filter((check) => check.kind === 'manual_only').map((check) => check.id)).toEqual(['review.screenshots']);
});

test('check ids are unique and every check is fed by a built-in scenario', () => {
  expect(CHECK_IDS.size).toBe(CHECKS.length);
  const fed = new Set(loadScenarios([BUILT_IN_SCENARIOS], CHECK_IDS).scenarios.flatMap((scenario) => scenario.feeds));
  expect(CHECKS.filter((check) => !fed.has(check.id)).map((check) => check.id)).toEqual([]);
});
