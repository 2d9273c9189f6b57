/**
 * Issue 28, "What was seen" 8 (states): an agency should not need `markers.state` and
 * `markers.states`. Both reference agencies verified with no state marker that matches: the six
 * preview states are learned from the preview, the three it cannot show are inferred from the
 * service's answers, and each run is exit 0. (On the harness before states were learned, every
 * state check was inconclusive here: exit 3.)
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { exitCodeOf } from '../../harness/report/legend.js';
import type { Report } from '../../harness/report/types.js';
import { useChromium } from '../support/chromium.js';
import { type HarnessWorld, type HarnessWorldOptions, harnessWorld } from './world.js';

const browser = useChromium();
const PREVIEW_STATES = ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered'];
const INFERRED = ['invalid_session', 'unavailable', 'rate_limited'];

describe.each([
  // The single-page agency, in German, its state on <body data-ergebnis>: only its preview links are named (their words are German).
  ['the single-page agency', { kind: 'spa', config: { trace: 'off', markers: { preview_link: 'a[data-szenario="{scenario}"]' } } }, 'body[data-ergebnis='],
  // The reference agency, its state marker renamed to one none of its pages carries.
  ['the reference agency', { config: { trace: 'off', markers: { state: 'main[data-outcome="{name}"]' } } }, 'main[data-entry-state='],
] as Array<[string, HarnessWorldOptions, string]>)('%s, with no state marker that matches', (_name, options, learnedMarker) => {
  let world: HarnessWorld;
  let report: Report;
  beforeAll(async () => {
    world = await harnessWorld(options);
    report = await world.verify({ browser: browser() });
  }, 400_000);
  afterAll(async () => {
    await world?.close();
  });

  test('every check passes: exit 0', () => {
    const notPassed = report.checks.filter((check) => !['pass', 'warn', 'manual'].includes(check.status)).map((check) => `${check.id}: ${check.status} (${check.reason})`);
    expect(notPassed).toEqual([]);
    expect(exitCodeOf(report.summary)).toBe(0);
  });

  test('the six preview states are recognised by the attribute the preview taught, the other three inferred from the service answers', () => {
    const evidence = (state: string) => report.checks.find((check) => check.id === `journey.state.${state}`)!.evidence.map((item) => item.label).join('\n');
    for (const state of PREVIEW_STATES) expect(evidence(state)).toContain(`learned from the preview: markup ${learnedMarker}`);
    for (const state of INFERRED) expect(evidence(state)).toContain('inferred: the service answered');
  });
});
