/**
 * The single-page agency (fixtures/agency-spa): client-rendered, German, its own page and state
 * names, its entry a `fetch` with a CSRF header, a wait page that retries by itself after a 429.
 * Configured only by its own harness.config.json (its markers; no entry endpoint, no form), it
 * passes every check three runs in a row against one emulator, reset between them, and each of
 * its defects fails the check tied to it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SPA_DEFECTS } from '../../fixtures/agency-spa/defects.js';
import type { Report } from '../../harness/report/types.js';
import { useChromium } from '../support/chromium.js';
import { expectEveryCheckPassed, verifyRuns } from './runs.js';
import { type HarnessWorld, harnessWorld } from './world.js';

const browser = useChromium();

describe('the single-page agency', () => {
  let world: HarnessWorld;
  let reports: Report[];
  beforeAll(async () => {
    world = await harnessWorld({ kind: 'spa', config: { trace: 'off' } });
    reports = await verifyRuns(world, 3, () => ({ browser: browser() }));
  }, 600_000);
  afterAll(async () => {
    await world?.close();
  });

  test('passes every check three runs in a row against one emulator, reset between them: exit 0 each time', () => {
    expectEveryCheckPassed(reports);
  });
});

// A real browser on a shared 2-core machine: a run that could not read a page gets one more try on a fresh world; a defect its check misses fails both.
describe.concurrent('with one of its defects switched on, its check fails', () => {
  test.for(SPA_DEFECTS.map((defect) => [defect.name, defect.check] as const))('--defect %s fails %s', { timeout: 180_000, retry: 1 }, async ([name, check], { onTestFinished }) => {
    const world = await harnessWorld({ kind: 'spa', defects: [name], approved: true, config: { trace: 'off', concurrency: 4 } });
    onTestFinished(() => world.close());
    const report = await world.verify({ only: [check], browser: browser() });
    const verdict = report.checks.find((candidate) => candidate.id === check);
    expect(verdict?.status, `${check}: ${verdict?.reason}`).toBe('fail');
  });
});
