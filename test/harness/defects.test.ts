/**
 * Proof that the checks can fail: for every defect of the reference agency, the harness run with
 * `--only` the check tied to it reports that check failed: judged on the facts its live run recorded,
 * two defects a day run live (useDefectMatrix, test/harness/recorded.ts).
 */
import { describe, expect, test } from 'vitest';
import { DEFECTS } from '../../fixtures/agency-reference/defects.js';
import { CHECK_IDS } from '../../harness/checks/registry.js';
import { defaultRunSeconds } from '../../harness/run/runner.js';
import { BUILT_IN_SCENARIOS, loadScenarios } from '../../harness/scenarios/load.js';
import { useChromium } from '../support/chromium.js';
import { useDefectMatrix } from './world.js';

const verdictOf = useDefectMatrix(useChromium(), 'reference', DEFECTS.map(({ name, check }) => ({ name, check, options: { defects: [name] } })));

/**
 * A result page that asks its own server for ever while the server never asks the service (issue 42,
 * item 2): polling_stops fails on what proved polling had to stop (the delivery the harness settled,
 * the session read it made answer 401), and each watch ends within its bound: every scenario ran to
 * its end (one stopped by a bound ends errored), within the bound the run sets itself.
 */
test('a page polling its own server for ever fails behaviour.polling_stops within its watch, naming what ended polling', () => {
  const verdict = verdictOf('polls-own-server-only');
  expect(verdict).toMatchObject({ status: 'fail', reason: expect.stringMatching(/the harness (settled the delivery|made the session read answer 401).* and no poll reached the service after it .*; the page asked the agency \d+ time\(s\) since, so it polls for ever/) });
  const scenarios = verdictOf.scenarios('polls-own-server-only');
  const ran = loadScenarios([BUILT_IN_SCENARIOS], CHECK_IDS).scenarios.filter((scenario) => scenarios.some((outcome) => outcome.id === scenario.id));
  expect(scenarios.map((outcome) => `${outcome.id}: ${outcome.status}`).sort()).toEqual(['polling-stops-delivered', 'polling-stops-expired', 'polling-stops-failed'].map((id) => `${id}: passed`));
  expect(Math.max(...scenarios.map((outcome) => outcome.durationMs))).toBeLessThan(defaultRunSeconds(ran, 4) * 1000);
});

describe('with one defect switched on, its check fails', () => {
  test.for(DEFECTS.map((defect) => [defect.name, defect.check] as const))('--defect %s fails %s', ([name, check]) => {
    const verdict = verdictOf(name);
    expect(verdict?.status, `${check}: ${verdict?.reason}`).toBe('fail');
    expect(verdict?.evidence.length).toBeGreaterThan(0);
  });
});
