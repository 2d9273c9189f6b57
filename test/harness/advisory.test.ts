/** a11y.axe judges the states axe-core analysed, and never passes over a state it could not. */
import { expect, test } from 'vitest';
import { ADVISORY_CHECKS } from '../../harness/checks/advisory.js';
import { ConfigSchema } from '../../harness/config.js';
import { type Capture, RunFacts } from '../../harness/run/facts.js';
import { scenariosBehindFailure } from '../../harness/report/traces.js';
import type { Scenario } from '../../harness/scenarios/schema.js';

const check = ADVISORY_CHECKS.find((candidate) => candidate.id === 'a11y.axe')!;

function captured(states: Array<Partial<Capture> & { key: string }>): RunFacts {
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, '/tmp');
  for (const state of states) facts.captures.set(state.key, { scenario: 's', url: 'http://127.0.0.1:3000/result', screenshots: { mobile: `/tmp/${state.key}.png` }, ...state });
  return facts;
}

test('seen 6: a state screenshotted but not analysed (it reloaded itself mid-analysis) makes the check inconclusive, naming it, never a pass', () => {
  const verdict = check.evaluate(captured([
    { key: 'production:result-won', axe: [] },
    { key: 'production:result-pending', axeError: 'axe-core could not analyse http://127.0.0.1:3000/result: Execution context was destroyed' },
  ]))!;
  expect([verdict.status, verdict.reason]).toEqual(['inconclusive', '1 of 2 states could not be analysed (production:result-pending): axe-core could not analyse http://127.0.0.1:3000/result: Execution context was destroyed']);
});

test('a critical violation on an analysed state still fails, whatever could not be analysed', () => {
  const verdict = check.evaluate(captured([
    { key: 'production:consent', axe: [{ id: 'label', impact: 'critical', help: 'Form elements must have labels', nodes: 2 }] },
    { key: 'production:result-pending', axeError: 'gone' },
  ]))!;
  expect(verdict.status).toBe('fail');
});

test('every state analysed without violations passes; no state analysed at all is inconclusive', () => {
  expect(check.evaluate(captured([{ key: 'production:consent', axe: [] }]))).toMatchObject({ status: 'pass', observed: 1 });
  expect(check.evaluate(captured([{ key: 'production:consent', axeError: 'gone' }]))!.status).toBe('inconclusive');
});

test('a failure names the scenarios where its violations were seen, so the report keeps their traces only, not those of every scenario axe ran in (issue 49 item 5)', () => {
  const verdict = check.evaluate(captured([
    { key: 'production:consent', scenario: 'production-won', axe: [{ id: 'label', impact: 'critical', help: 'Form elements must have labels', nodes: 1 }] },
    { key: 'preview:result-lost', scenario: 'sandbox-previews', axe: [{ id: 'region', impact: 'moderate', help: 'Content in landmarks', nodes: 1 }] },
    { key: 'production:result-pending', scenario: 'polling-schedule', axe: [] },
  ]))!;
  expect(verdict.status).toBe('fail');
  const feeders = ['sandbox-previews', 'production-won', 'polling-schedule'].map((id) => ({ id }) as Scenario);
  expect(scenariosBehindFailure(verdict.reason, feeders).map((scenario) => scenario.id)).toEqual(['production-won']);
});
