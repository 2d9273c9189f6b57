/**
 * Issue 28, "What was seen" 8 (states): an agency should not need `markers.state` and
 * `markers.states`. The single-page agency (German, its state on <body data-ergebnis>) verified
 * with no state marker at all: the six preview states are learned from the preview, the three it
 * cannot show are inferred from the service's answers, and the run is exit 0.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { exitCodeOf } from '../../harness/report/legend.js';
import type { Report } from '../../harness/report/types.js';
import { useChromium } from '../support/chromium.js';
import { type HarnessWorld, harnessWorld } from './world.js';

const browser = useChromium();
let world: HarnessWorld;
let report: Report;

beforeAll(async () => {
  // Only its preview links are named (their words are German); nothing says where or how a state shows.
  world = await harnessWorld({ kind: 'spa', config: { trace: 'off', markers: { preview_link: 'a[data-szenario="{scenario}"]' } } });
  report = await world.verify({ browser: browser() });
}, 400_000);
afterAll(async () => {
  await world?.close();
});

test('without markers.state and markers.states the single-page agency passes: exit 0', () => {
  const notPassed = report.checks.filter((check) => !['pass', 'warn', 'manual'].includes(check.status)).map((check) => `${check.id}: ${check.status} (${check.reason})`);
  expect(notPassed).toEqual([]);
  expect(exitCodeOf(report.summary)).toBe(0);
});

test('the six preview states are recognised by what the preview taught, the other three inferred from the service answers', () => {
  const evidence = (id: string) => report.checks.find((check) => check.id === id)!.evidence.map((item) => item.label).join('\n');
  for (const state of ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered']) expect(evidence(`journey.state.${state}`)).toContain('learned from the preview: markup body[data-ergebnis=');
  for (const state of ['invalid_session', 'unavailable', 'rate_limited']) expect(evidence(`journey.state.${state}`)).toContain('inferred: the service answered');
});
