/**
 * Every run ends, whatever the agency's page does (issue 42, item 2): a landing page that blocks its
 * main thread on a synchronous request never answered, one that spins for ever, one whose body
 * trickles a byte every 5 s. Each scenario that meets one ends within its step's bound, saying what
 * the page was doing; its check is inconclusive (exit 3), never passed; the run ends and reports.
 * The four runs wait out their bounds side by side: each has a world and a browser context of its own.
 */
import { expect, test } from 'vitest';
import { HOSTILE_PAGES } from '../../fixtures/agency-reference/hostile.js';
import { exitCodeOf } from '../../harness/report/legend.js';
import { useChromium } from '../support/chromium.js';
import { harnessWorld } from './world.js';

const browser = useChromium();

const DOING = {
  'sync-xhr': /main thread did not answer/,
  busy: /main thread did not answer/,
  trickle: /document still loading/,
};

test.concurrent.for(HOSTILE_PAGES)('a landing page that holds the browser (%s) ends its scenario inconclusive, saying what the page was doing', { timeout: 180_000 }, async (kind, { onTestFinished }) => {
  const world = await harnessWorld({ approved: true, agency: { hostile: kind }, config: { trace: 'off' } });
  onTestFinished(() => world.close());
  const report = await world.verify({ only: ['journey.landing_page'], browser: browser(), maxSeconds: 120 });
  expect(report.checks.map((check) => check.status)).toEqual(['inconclusive']);
  expect(exitCodeOf(report.summary)).toBe(3);
  const [scenario] = report.scenarios;
  expect(scenario).toMatchObject({ id: 'landing', status: 'errored' });
  expect(scenario!.error).toMatch(/^step 1 \(open_landing\): .*(Timeout|bound)/);
  expect(scenario!.error).toMatch(DOING[kind]);
});

// The page blocks on a request never answered, which holds the step past the run's bound without spinning a core.
test.concurrent('a run that reaches --max-seconds ends its scenarios with the bound as their reason, and still reports', { timeout: 180_000 }, async ({ onTestFinished }) => {
  const world = await harnessWorld({ approved: true, agency: { hostile: 'sync-xhr' }, config: { trace: 'off' } });
  onTestFinished(() => world.close());
  const report = await world.verify({ only: ['journey.landing_page'], browser: browser(), maxSeconds: 10 });
  expect(report.checks.map((check) => check.status)).toEqual(['inconclusive']);
  expect(report.scenarios[0]!.error).toMatch(/the run reached its bound of 10 s \(--max-seconds\)/);
});
