/**
 * Proof that the checks can fail: for every defect of the reference agency, the harness run with
 * `--only` the check tied to it reports that check failed. Runs side by side, one browser shared.
 */
import { describe, expect, test } from 'vitest';
import { DEFECTS } from '../../fixtures/agency-reference/defects.js';
import { useChromium } from '../support/chromium.js';
import { harnessWorld } from './world.js';

const browser = useChromium();

// A real browser on a shared 2-core machine: a run that could not read a page gets one more try on a fresh world; a defect its check misses fails both.
describe.concurrent('with one defect switched on, its check fails', () => {
  test.for(DEFECTS.map((defect) => [defect.name, defect.check] as const))('--defect %s fails %s', { timeout: 120_000, retry: 1 }, async ([name, check], { onTestFinished }) => {
    const world = await harnessWorld({ defects: [name], approved: true, config: { trace: 'off', concurrency: 4 } });
    onTestFinished(() => world.close());
    const report = await world.verify({ only: [check], browser: browser() });
    const verdict = report.checks.find((candidate) => candidate.id === check);
    expect(verdict?.status, `${check}: ${verdict?.reason}`).toBe('fail');
    expect(verdict?.evidence.length).toBeGreaterThan(0);
  });
});
