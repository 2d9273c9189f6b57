/**
 * A page read as a state the service's answer rules out (pending's signature and words, after a
 * 429) is a misreading, not the agency showing the wrong state: `expect` records it without that
 * state, and journey.state.rate_limited is inconclusive, not failed. The step runs in process on a
 * made-up run: a page that never shows rate_limited, read as pending from what the preview taught.
 */
import { expect, test } from 'vitest';
import { JOURNEY_CHECKS } from '../../harness/checks/journey.js';
import { ConfigSchema } from '../../harness/config.js';
import type { ObservedCall } from '../../harness/emulator-client/client.js';
import type { Fingerprint } from '../../harness/browser/in-page.js';
import type { PageSeen } from '../../harness/browser/seen.js';
import { RunFacts } from '../../harness/run/facts.js';
import type { ScenarioRun } from '../../harness/run/scenario-run.js';
import { expectStep } from '../../harness/run/state-steps.js';

const AGENCY = 'http://127.0.0.1:3000';
const features = { tag: 'pending-page' } as unknown as Fingerprint;

/** A run whose journey's entry the service answered 429, and whose page reads as pending by what the preview taught. */
function rateLimitedRun(): { run: ScenarioRun; facts: RunFacts } {
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: AGENCY, emulator: 'http://127.0.0.1:4010', callback: `${AGENCY}/callback` }, '/tmp');
  facts.states.learned = { signatures: [], unlearned: [] };
  Object.assign(facts.states, {
    ready: async () => undefined,
    matched: () => "pending's words (Bitte warten) and its role=status",
    carried: (page: Fingerprint) => (page === features ? ['pending'] : []),
  });
  const journey = { scenario: 'rate-limited', journey: 'main', pack: { code: 'P1', outcome: 'won' }, country: 'DE', email: 'h@example.test', consent: [], submissions: [] };
  facts.journeys.push(journey as unknown as RunFacts['journeys'][number]);
  const page: PageSeen = {
    scenario: 'rate-limited', journey: 'main', environment: 'production', at: 2, url: `${AGENCY}/result`, status: 200,
    shows: ['state:pending'], links: [], title: 'Bitte warten', text: 'Bitte warten, wir prüfen deine Teilnahme.', features, learned: 'pending',
  };
  const entry = { seq: 1, at: 1, method: 'POST', path: '/session/entry', environment: 'production', pack: 'P1', status: 429, body: null, answer: { error: 'rate_limited' } } as unknown as ObservedCall;
  const run = {
    facts,
    scenario: { id: 'rate-limited', phase: 'production' },
    journey: () => journey,
    session: async () => ({ lastMark: 0, page: { url: () => `${AGENCY}/result` } }),
    view: () => ({ waitFor: async () => ({ met: false }), shownSince: async () => [], text: async () => page.text }),
    observe: async () => page,
    observed: async () => [entry],
  } as unknown as ScenarioRun;
  return { run, facts };
}

test("a page with pending's signature and words after a 429 is not counted as pending: journey.state.rate_limited is inconclusive, not failed", async () => {
  const { run, facts } = rateLimitedRun();
  await expect(expectStep(run, { do: 'expect', journey: 'main', state: 'rate_limited', timeout_s: 1 })).rejects.toThrow(/rules out/);

  const [expectation] = facts.expectations;
  expect(expectation).toMatchObject({ state: 'rate_limited', met: false, answer: { status: 429 }, how: expect.stringContaining('429 rules out') });
  expect(expectation!.page!.shows).not.toContain('state:pending');
  const verdict = JOURNEY_CHECKS.find((check) => check.id === 'journey.state.rate_limited')!.evaluate(facts);
  expect(verdict).toMatchObject({ status: 'inconclusive' });
});
