/**
 * The single-page agency (fixtures/agency-spa): client-rendered, German, its own page and state
 * names, its entry a `fetch` with a CSRF header, a wait page that retries by itself after a 429.
 * Configured only by its own harness.config.json (its markers; no entry endpoint, no form), it
 * passes every check three runs in a row against one emulator, reset between them, and each of
 * its defects fails the check tied to it.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SPA_DEFECTS } from '../../fixtures/agency-spa/defects.js';
import { CHECKS } from '../../harness/checks/registry.js';
import { exitCodeOf } from '../../harness/report/legend.js';
import type { Report } from '../../harness/report/types.js';
import { launchChromium } from '../support/chromium.js';
import { type HarnessWorld, harnessWorld } from './world.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('the single-page agency', () => {
  let world: HarnessWorld;
  const reports: Report[] = [];
  beforeAll(async () => {
    world = await harnessWorld({ kind: 'spa', config: { trace: 'off' } });
    for (let run = 1; run <= 3; run += 1) {
      if (run > 1) await world.reset();
      reports.push(await world.verify({ browser }));
    }
  }, 600_000);
  afterAll(async () => {
    await world?.close();
  });

  test('passes every check three runs in a row against one emulator, reset between them: exit 0 each time', () => {
    for (const [index, report] of reports.entries()) {
      const notPassed = report.checks.filter((check) => check.status !== 'pass').map((check) => `${check.id}: ${check.status} (${check.reason})`);
      expect(notPassed.map((line) => line.split(':')[0]), `run ${index + 1}: ${notPassed.join('; ')}`).toEqual(['callback.cookie_flags', 'review.screenshots']);
      expect(exitCodeOf(report.summary)).toBe(0);
      expect(report.checks.map((check) => check.id)).toEqual(CHECKS.map((check) => check.id));
    }
  });
});

describe.concurrent('with one of its defects switched on, its check fails', () => {
  test.for(SPA_DEFECTS.map((defect) => [defect.name, defect.check] as const))('--defect %s fails %s', { timeout: 180_000 }, async ([name, check], { onTestFinished }) => {
    const world = await harnessWorld({ kind: 'spa', defects: [name], approved: true, config: { trace: 'off', concurrency: 4 } });
    onTestFinished(() => world.close());
    const report = await world.verify({ only: [check], browser });
    const verdict = report.checks.find((candidate) => candidate.id === check);
    expect(verdict?.status, `${check}: ${verdict?.reason}`).toBe('fail');
  });
});
