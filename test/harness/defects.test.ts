/**
 * Proof that the checks can fail: for every defect of the reference agency, the harness run with
 * `--only` the check tied to it reports that check failed: judged on the facts its live run recorded,
 * two defects a day run live (useDefectMatrix, test/harness/recorded.ts).
 */
import { describe, expect, test } from 'vitest';
import { CHECK_IDS } from '../../harness/checks/registry.js';
import { defaultRunSeconds } from '../../harness/run/runner.js';
import { BUILT_IN_SCENARIOS, loadScenarios } from '../../harness/scenarios/load.js';
import { useChromium } from '../support/chromium.js';
import { REFERENCE_CASES } from './defect-cases.js';
import { useDefectMatrix } from './world.js';

const verdictOf = useDefectMatrix(useChromium(), 'reference', REFERENCE_CASES);

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

/**
 * The shapes of issue 47, each with a defect of a part only it has, or of every build: the check
 * fails on what the shape broke, read where the shape put it.
 */
test('on each shape of site, its defect fails the tied check for what that shape broke', () => {
  const said = (name: string) => { const verdict = verdictOf(name); return [verdict?.reason, ...(verdict?.evidence ?? []).map((item) => item.label)].join('\n'); };
  expect(said('home-content-fails')).toMatch(/answers an error instead of the campaign: \S+\/home: HTTP 200; shows page:error/);
  expect(said('marketing-preselected')).toMatch(/is ticked when the page opens[\s\S]*the form was hidden; the harness clicked "[^"]+" \(the one button of the main content\)/);
  expect(said('confirm-without-csrf')).toMatch(/^the request with its CSRF token missing was entered[\s\S]*the page confirming the consent form once sent sends POST \/entry\/confirm/);
  expect(said('api-readable-by-any-origin')).toMatch(/^another site may read its answers with the collector's cookies: .*Access-Control-Allow-Credentials: true/);
  expect(said('agePage:age-not-asked')).toMatch(/^the consent form has no minimum-age box though the terms set 18/);
  expect(said('twoOrigins:page-polls-forever')).toMatch(/^polling-stops-\w+: the page went on asking the agency after delivery \w+ \(\d+ request\(s\), e\.g\. GET \/result\/status\)/);
});

describe('with one defect switched on, its check fails', () => {
  test.for(REFERENCE_CASES.map(({ name, check }) => [name, check] as const))('--defect %s fails %s', ([name, check]) => {
    const verdict = verdictOf(name);
    expect(verdict?.status, `${check}: ${verdict?.reason}`).toBe('fail');
    expect(verdict?.evidence.length).toBeGreaterThan(0);
  });
});
