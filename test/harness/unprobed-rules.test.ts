/**
 * Seen 4: rules the harness did not probe. A mixed-case terms version is served, so a lower-cased
 * echo fails; a result shown after a failed exchange fails (a result is never guessed); a sandbox
 * session opened after a 401 is another identity.
 */
import { expect, test } from 'vitest';
import { BEHAVIOUR_CHECKS } from '../../harness/checks/behaviour.js';
import { CHECKS } from '../../harness/checks/registry.js';
import { CONSENT_CHECKS } from '../../harness/checks/consent.js';
import { ConfigSchema } from '../../harness/config.js';
import type { ObservedCall } from '../../harness/emulator-client/client.js';
import type { Shown } from '../../harness/journey-states.js';
import { type JourneyFacts, RunFacts } from '../../harness/run/facts.js';
import { BUILT_IN_SCENARIOS, loadScenarios } from '../../harness/scenarios/load.js';

const checkOf = (id: string) => [...BEHAVIOUR_CHECKS, ...CONSENT_CHECKS].find((candidate) => candidate.id === id)!;
const facts = () => new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, '/tmp');
const journey = (scenario: string, name: string, pack: string): JourneyFacts => ({ scenario, journey: name, pack: { code: pack, outcome: 'lost' }, country: 'DE', email: 'h@example.test', consent: [], submissions: [] });

function call(seq: number, fields: Partial<ObservedCall>): ObservedCall {
  return { seq, at: seq * 100, method: 'POST', path: '/session/entry', environment: 'production', key_id: 2, session_id: 1, pack: 'P1', scenario: null, status: 200, body: null, ...fields };
}

function page(scenario: string, at: number, shows: Shown[]) {
  return { scenario, journey: 'main', environment: 'production' as const, at, url: 'http://127.0.0.1:3000/callback', status: 200, shows, links: [], title: 'Nordkakao', text: '' };
}

test('seen 4a: a built-in scenario serves a mixed-case terms version, and an echo in lower case fails entry.terms_version_echoed', () => {
  const { scenarios } = loadScenarios([BUILT_IN_SCENARIOS], new Set(CHECKS.map((check) => check.id)));
  const seen = facts();
  // `{version}` is the run's drawn version (RunFacts.termsDraw).
  const versions = scenarios.filter((scenario) => scenario.feeds.includes('entry.terms_version_echoed')).flatMap((scenario) => scenario.steps.flatMap((step) => (step.do === 'edit_terms' && step.set.version ? [step.set.version.replaceAll('{version}', seen.termsDraw.version)] : [])));
  expect(versions.some((version) => version !== version.toLowerCase())).toBe(true);
  seen.journeys.push(journey('terms-change', 'main', 'P1'));
  seen.calls.push(call(1, { method: 'GET', path: '/session', answer: { terms_version: 'QK-4821b-1' } }), call(2, { body: { consent: { accepted: true, terms_version: 'qk-4821b-1' } } }));
  expect(checkOf('entry.terms_version_echoed').evaluate(seen)).toMatchObject({ status: 'fail', reason: 'terms-change: sent "qk-4821b-1", the session\'s terms are "QK-4821b-1"' });
});

test('seen 4b: a result shown after a failed exchange fails behaviour.no_exchange_retry; a rescan page passes', () => {
  const run = (shows: Shown[]) => {
    const seen = facts();
    seen.journeys.push(journey('exchange-interrupted', 'main', 'P1'));
    seen.faults.push({ scenario: 'exchange-interrupted', journey: 'main', pack: 'P1', on: 'exchange', at: 50, drop: true });
    seen.calls.push(call(1, { path: '/sessions', status: 0, fault: 1 } as Partial<ObservedCall>));
    seen.pages.push(page('exchange-interrupted', 500, shows));
    return checkOf('behaviour.no_exchange_retry').evaluate(seen)!;
  };
  expect(run(['page:result', 'state:lost'])).toMatchObject({ status: 'fail', reason: 'after the failed exchange the page shows a result, lost, though the service gave no session to know one' });
  expect(run(['page:error'])).toMatchObject({ status: 'pass', reason: 'not retried, and no result shown' });
  expect(run([]).status).toBe('inconclusive');
});

test('seen 4b, with nothing recognised: a page carrying none of the results learned from the preview passes behaviour.no_exchange_retry; one result never learned leaves it inconclusive', () => {
  const RESULTS = ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered'] as const;
  const fingerprint = (value: string) => ({ markup: [`body[data-view="${value}"]`], structure: ['body>main'], text: [] });
  const run = (learnedStates: readonly (typeof RESULTS)[number][], shownView: string) => {
    const seen = facts();
    seen.states.expect(learnedStates);
    for (const state of learnedStates) seen.states.report(state, fingerprint(state));
    seen.journeys.push(journey('exchange-interrupted', 'main', 'P1'));
    seen.faults.push({ scenario: 'exchange-interrupted', journey: 'main', pack: 'P1', on: 'exchange', at: 50, drop: true });
    seen.calls.push(call(1, { path: '/sessions', status: 0, fault: 1 } as Partial<ObservedCall>));
    seen.pages.push({ ...page('exchange-interrupted', 500, []), features: fingerprint(shownView) });
    return checkOf('behaviour.no_exchange_retry').evaluate(seen)!;
  };
  expect(run(RESULTS, 'rescan')).toMatchObject({ status: 'pass', reason: 'not retried, and no result shown' });
  expect(run(RESULTS, 'rescan').evidence[0]!.label).toContain('carries none of the results learned from the preview');
  expect(run(RESULTS.filter((state) => state !== 'pending'), 'rescan').status).toBe('inconclusive');
});

test('seen 4c: a sandbox session opened after a 401, which the preview did not open, fails behaviour.no_new_identity_after_401', () => {
  const seen = facts();
  seen.journeys.push(journey('entry-invalid-session', 'main', 'P1'));
  seen.calls.push(
    call(1, { status: 401, answer: { error: 'invalid_session' } }),
    call(2, { path: '/sessions', environment: 'sandbox', key_id: 1, session_id: 9, pack: null, scenario: 'lost', status: 201, answer: { session_created: true } }),
    call(3, { environment: 'sandbox', key_id: 1, session_id: 9, pack: null, scenario: 'lost', answer: { entry_state: 'lost' } }),
  );
  seen.pages.push(page('entry-invalid-session', 400, ['page:result', 'state:lost']));
  expect(BEHAVIOUR_CHECKS.find((check) => check.id === 'behaviour.no_new_identity_after_401')!.evaluate(seen)).toMatchObject({
    status: 'fail', reason: 'after the 401 the agency opened a sandbox session (scenario lost) instead of asking to rescan',
  });
  // The preview's own sandbox session of that scenario is not another identity.
  seen.previewed.push('lost');
  expect(BEHAVIOUR_CHECKS.find((check) => check.id === 'behaviour.no_new_identity_after_401')!.evaluate(seen)).toBeUndefined();
  // Nor is the won preview shown once more, its entry made to fail by the harness, while this journey ran (the two probes meet).
  seen.previewed.push('won');
  seen.calls.unshift(call(0, { path: '/sessions', environment: 'sandbox', key_id: 1, session_id: 8, pack: null, scenario: 'won', status: 201, answer: { session_created: true } }));
  seen.calls.push(
    call(4, { path: '/sessions', environment: 'sandbox', key_id: 1, session_id: 10, pack: null, scenario: 'won', status: 201, answer: { session_created: true } }),
    call(5, { environment: 'sandbox', key_id: 1, session_id: 10, pack: null, scenario: 'won', status: 500, fault: 1 }),
  );
  expect(BEHAVIOUR_CHECKS.find((check) => check.id === 'behaviour.no_new_identity_after_401')!.evaluate(seen)).toBeUndefined();
});
