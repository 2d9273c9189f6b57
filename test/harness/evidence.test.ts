/**
 * The evidence rules (harness/checks/evaluate.ts): a check passes only on an observation of what
 * it judges, fails only on evidence of a violation, and is otherwise inconclusive with what to
 * configure; the exit code is 0 only when every check passed, 3 when none failed but one is
 * inconclusive, 1 when one failed. Unit tests on made-up facts, then two runs whose approval is
 * refused: what could not run is inconclusive (exit 3, never 0), what the sandbox showed still judges.
 */
import { describe, expect, test } from 'vitest';
import { evaluateChecks } from '../../harness/checks/evaluate.js';
import { CHECKS } from '../../harness/checks/registry.js';
import { type Check, pass } from '../../harness/checks/types.js';
import { ConfigSchema } from '../../harness/config.js';
import { RunFacts } from '../../harness/run/facts.js';
import { exitCodeOf } from '../../harness/report/legend.js';
import { BUILT_IN_SCENARIOS, loadScenarios } from '../../harness/scenarios/load.js';
import type { Scenario } from '../../harness/scenarios/schema.js';
import { useChromium } from '../support/chromium.js';
import { harnessWorld } from './world.js';

const { scenarios } = loadScenarios([BUILT_IN_SCENARIOS], new Set(CHECKS.map((check) => check.id)));

/** Facts of a run in which every scenario ran to its end and nothing was observed. */
function emptyRun(): RunFacts {
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, '/tmp');
  for (const scenario of scenarios) facts.outcomes.set(scenario.id, { id: scenario.id, title: scenario.title, status: 'passed', durationMs: 1 });
  return facts;
}

const feeding = (id: string): Scenario => ({ ...scenarios[0]!, feeds: [id] });
/** A made-up check's guidance: these judge verdicts only. */
const MADE_UP: Check['guidance'] = { rules: [], fix: 'none', reference: 'none' };

describe('the rules, on made-up facts', () => {
  test('every check of the harness, given a run that observed nothing, is inconclusive: none passes, none fails', () => {
    const report = evaluateChecks(emptyRun(), CHECKS, scenarios);
    expect(report.filter((check) => check.status !== 'inconclusive').map((check) => `${check.id}: ${check.status}`)).toEqual([]);
    expect(report.every((check) => check.reason.length > 0)).toBe(true);
  });

  test('a check that claims a pass with zero observations is inconclusive', () => {
    const check: Check = { id: 'made.up', title: 'made up', group: 'journey', spec: '§0', kind: 'can_fail', guidance: MADE_UP, configure: 'markers.states.won', evaluate: () => pass(0, 'compared 0') };
    const [verdict] = evaluateChecks(emptyRun(), [check], [feeding('made.up')]);
    expect(verdict).toMatchObject({ status: 'inconclusive', reason: 'this run observed nothing it judges', configure: 'markers.states.won' });
  });

  test('a pass on what one scenario showed, while another that feeds the check stopped early, is inconclusive: the stopped one might have shown the violation', () => {
    const check: Check = { id: 'made.up', title: 'made up', group: 'journey', spec: '§0', kind: 'can_fail', guidance: MADE_UP, evaluate: () => pass(3, 'three seen') };
    const facts = emptyRun();
    const stopped = { ...feeding('made.up'), id: 'stopped-one' };
    facts.outcomes.set(stopped.id, { id: stopped.id, title: 'stopped', status: 'errored', durationMs: 1, error: 'step 2 (scan): timeout' });
    const [verdict] = evaluateChecks(facts, [check], [feeding('made.up'), stopped]);
    expect(verdict).toMatchObject({ status: 'inconclusive', reason: 'its evidence is incomplete (pass on what was seen: three seen); scenario stopped-one stopped before giving evidence: step 2 (scan): timeout' });
  });

  test('a fail without evidence of the violation is not a fail', () => {
    const check: Check = { id: 'made.up', title: 'made up', group: 'journey', spec: '§0', kind: 'can_fail', guidance: MADE_UP, evaluate: () => ({ status: 'fail', reason: 'says so', evidence: [] }) };
    expect(evaluateChecks(emptyRun(), [check], [feeding('made.up')])[0]!.status).toBe('inconclusive');
  });

  test('a check no scenario of the run feeds (one was disabled in the config) is inconclusive, and says what to enable', () => {
    const [verdict] = evaluateChecks(emptyRun(), [CHECKS.find((check) => check.id === 'journey.state.invalid_session')!], []);
    expect(verdict).toMatchObject({ status: 'inconclusive', reason: 'no scenario of this run feeds it', configure: expect.stringMatching(/disable_scenarios/) });
  });

  test('pkce.s256 with the method and format right but no verifier to compare with is inconclusive, not a pass with "0 compared"', () => {
    const facts = emptyRun();
    facts.journeys.push({
      scenario: 'production-won', journey: 'main', pack: { code: 'P1', outcome: 'won' }, country: 'DE', email: 'h@example.test', consent: [], submissions: [],
      authorize: { url: 'http://127.0.0.1:4010/authorize', state: 's'.repeat(43), challenge: 'c'.repeat(43), method: 'S256' },
    });
    const [verdict] = evaluateChecks(facts, [CHECKS.find((check) => check.id === 'pkce.s256')!], scenarios);
    expect([verdict!.status, verdict!.reason]).toEqual(['inconclusive', 'S256 on 1 journey(s), but no exchange presented a verifier to compare with']);
  });

  test('coverage.sandbox_calls names the scenarios whose link the preview did not show apart from those it opened without a call', () => {
    const facts = emptyRun();
    facts.previewed.push('won', 'lost', 'failed', 'ineligible', 'already_entered');
    const [verdict] = evaluateChecks(facts, [CHECKS.find((check) => check.id === 'coverage.sandbox_calls')!], scenarios);
    expect(verdict!.status).toBe('fail');
    expect(verdict!.reason).toContain('won: no session; won: no entry; lost: no session;');
    expect(verdict!.reason).toContain('pending: no session (no link to it found on the preview); pending: no entry;');
  });

  test('exit codes: 0 with warnings and manual reviews, 3 with an inconclusive check, 1 with a failed one', () => {
    const summary = { pass: 40, fail: 0, warn: 1, manual: 1, inconclusive: 0 };
    expect(exitCodeOf(summary)).toBe(0);
    expect(exitCodeOf({ ...summary, inconclusive: 1 })).toBe(3);
    expect(exitCodeOf({ ...summary, inconclusive: 1, fail: 1 })).toBe(1);
  });
});

describe.concurrent('runs whose approval is refused', () => {
  const browser = useChromium();

  test('a promotion that is not live: the sandbox passes, every production check is inconclusive with the reason, and the exit code is 3, never 0', async ({ onTestFinished }) => {
    const world = await harnessWorld({ fixture: (fixture) => ({ ...fixture, promotion: { ...fixture.promotion, status: 'draft' } }), config: { trace: 'off' } });
    onTestFinished(() => world.close());
    const report = await world.verify({ browser: browser() });
    expect(exitCodeOf(report.summary)).toBe(3);
    expect(report.summary.fail).toBe(0);
    const byId = new Map(report.checks.map((check) => [check.id, check]));
    expect(byId.get('coverage.sandbox_calls')!.status).toBe('pass');
    expect(byId.get('journey.state.ineligible')!.status).toBe('pass');
    expect(byId.get('state.tampered_rejected')).toMatchObject({ status: 'inconclusive', reason: expect.stringMatching(/the brand could not approve the integration \(.*live/) });
    expect(report.scenarios.filter((scenario) => scenario.status === 'skipped').length).toBe(18);
  }, 180_000);

  test('a forbidden field in the sandbox entries: approval is refused, and the sandbox evidence fails the run (exit 1), counting only the entries the service accepted', async ({ onTestFinished }) => {
    const world = await harnessWorld({ defects: ['sandbox-entry-forbidden-fields'], config: { trace: 'off' } });
    onTestFinished(() => world.close());
    const report = await world.verify({ browser: browser() });
    expect(exitCodeOf(report.summary)).toBe(1);
    const byId = new Map(report.checks.map((check) => [check.id, check]));
    expect(byId.get('entry.no_forbidden_fields')).toMatchObject({ status: 'fail', reason: expect.stringMatching(/the preview's \w+ entry: fields email \(answered 400 invalid_request\)/) });
    expect(byId.get('coverage.sandbox_calls')).toMatchObject({ status: 'fail', reason: expect.stringMatching(/won: no entry the service accepted \(refused: 400 invalid_request\)/) });
    expect(byId.get('pkce.s256')!.status).toBe('inconclusive');
  }, 180_000);
});
