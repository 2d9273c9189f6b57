/**
 * A page the site leaves by itself (a wait page that sends the entry again once its wait is over)
 * is judged with the service's answer it was shown for: here the 429's wait page is read, then,
 * while the journey settles, the page retries, the service answers 200 lost and the lost page is
 * drawn. `expect` must pair the wait page with the 429 (journey.state.rate_limited passes), never
 * with the retry's 200 lost (inconclusive) nor take the lost page for it (a false fail: the same
 * page as lost's). The step runs in process on a made-up run, once by a marker and once by inference.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { JOURNEY_CHECKS } from '../../harness/checks/journey.js';
import { ConfigSchema } from '../../harness/config.js';
import type { ObservedCall } from '../../harness/emulator-client/client.js';
import type { Fingerprint } from '../../harness/browser/in-page.js';
import type { PageSeen } from '../../harness/browser/seen.js';
import type { Shown } from '../../harness/journey-states.js';
import type { PageReading } from '../../harness/pages/agency.js';
import { RunFacts } from '../../harness/run/facts.js';
import type { ScenarioRun } from '../../harness/run/scenario-run.js';
import { expectStep } from '../../harness/run/state-steps.js';

const AGENCY = 'http://127.0.0.1:3000';
const fingerprintOf = (word: string): Fingerprint => ({ markup: [`section.${word}`], structure: ['body>main>section>h2'], text: [word] });
const FORM = fingerprintOf('einwilligung');
const WAIT = fingerprintOf('warten');
const LOST = fingerprintOf('verloren');

const pageOf = (features: Fingerprint, shows: Shown[], at: number): PageSeen => ({
  scenario: 'entry-rate-limited', journey: 'main', environment: 'production', at, url: `${AGENCY}/`, status: 200, shows, links: [], title: 'Aktion', text: features.text.join(' '), features,
});
const entry = (seq: number, status: number, answer: object) => ({ seq, at: seq, method: 'POST', path: '/session/entry', environment: 'production', pack: 'P1', status, body: null, answer }) as unknown as ObservedCall;

/**
 * A run whose entry the service answered 429 and whose page shows the wait (`waitShows`), until the
 * harness reads it once more after the step: by then the page sent the entry again, was answered
 * 200 lost and shows the lost page. The emulator's clock is the harness's (offset 0).
 */
function leftByItself(waitShows: Shown[]): { run: ScenarioRun; facts: RunFacts } {
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: AGENCY, emulator: 'http://127.0.0.1:4010', callback: `${AGENCY}/callback` }, '/tmp');
  facts.states.learned = { signatures: [], unlearned: [] };
  Object.assign(facts.states, { ready: async () => undefined, matched: () => "lost's words", carried: (page: Fingerprint) => (page === LOST ? ['lost'] : []) });
  const journey = { scenario: 'entry-rate-limited', journey: 'main', pack: { code: 'P1', outcome: 'lost' }, country: 'DE', email: 'h@example.test', consent: [], submissions: [{ at: 1 }] };
  facts.journeys.push(journey as unknown as RunFacts['journeys'][number]);
  facts.pages.push(pageOf(FORM, ['page:consent'], 0));
  // The lost page of the same run's drawn entry: a page taken for the 429's would be its twin.
  facts.expectations.push({ scenario: 'entry-rate-limited', journey: 'main', environment: 'production', wanted: 'result', state: 'lost', met: true, page: pageOf(LOST, ['state:lost'], 20), answer: { status: 200, entryState: 'lost' }, how: 'marker' });
  let retried = false;
  const waiting = (): PageReading => ({ shown: waitShows, features: WAIT });
  const run = {
    facts,
    scenario: { id: 'entry-rate-limited', phase: 'production' },
    journey: () => journey,
    session: async () => ({ lastMark: 0, page: { url: () => `${AGENCY}/` }, snapshot: async () => (retried ? pageOf(LOST, ['state:lost'], 9) : pageOf(WAIT, waitShows, 5)) }),
    view: () => ({
      // Readings a quarter of a second apart, as the page's own reading takes them, while the page still waits.
      waitFor: async (wanted: (shown: Shown[], reading: PageReading) => Promise<boolean>) => {
        for (let reading = 0; reading < 20; reading += 1) {
          vi.setSystemTime(Date.now() + 250);
          if (await wanted(waitShows, waiting())) return { met: true, shown: waitShows };
        }
        return { met: false, shown: waitShows };
      },
      shownSince: async () => [],
      text: async () => '',
    }),
    // Reading the page once it settled takes long enough for the page's own retry, 8 s after the 429.
    observe: async () => {
      retried = true;
      return pageOf(LOST, ['state:lost'], 9);
    },
    observed: async () => (retried ? [entry(2, 429, { error: 'rate_limited' }), entry(8, 200, { entry_state: 'lost' })] : [entry(2, 429, { error: 'rate_limited' })]),
  } as unknown as ScenarioRun;
  return { run, facts };
}

const verdictOf = (facts: RunFacts) => JOURNEY_CHECKS.find((check) => check.id === 'journey.state.rate_limited')!.evaluate(facts);

afterEach(() => {
  vi.useRealTimers();
});

test.each([
  ['its marker', ['state:rate_limited'] as Shown[], /^marker; then the page left it by itself/],
  ['inference (a page unlike every learned state)', [] as Shown[], /^inferred: the service answered 429 rate_limited .*; then the page left it by itself/],
])('a wait page read by %s, left by itself for the retry\'s lost page before the step ended, is judged with the 429 it was shown for', async (_how, waitShows, how) => {
  vi.useFakeTimers({ toFake: ['Date'], now: 0 });
  const { run, facts } = leftByItself(waitShows);
  await expectStep(run, { do: 'expect', journey: 'main', state: 'rate_limited', timeout_s: 10 });

  const expectation = facts.expectations.find((candidate) => candidate.state === 'rate_limited');
  expect(expectation).toMatchObject({ met: true, answer: { status: 429, error: 'rate_limited' }, how: expect.stringMatching(how) });
  expect(expectation!.page!.features).toBe(WAIT);
  expect(verdictOf(facts)).toMatchObject({ status: 'pass' });
});

test('an inferred state whose page left before it could be read whole proves nothing: it cannot be told from the other states\' pages', () => {
  const { facts } = leftByItself([]);
  facts.expectations.push({ scenario: 'entry-rate-limited', journey: 'main', environment: 'production', wanted: 'result', state: 'rate_limited', met: true, page: undefined, answer: { status: 429, error: 'rate_limited' }, how: 'inferred: the service answered 429 rate_limited; then the page left it by itself (it shows state:lost now), before it could be read whole' });
  expect(verdictOf(facts)).toMatchObject({ status: 'inconclusive', evidence: [{ label: expect.stringContaining('left before it could be read whole, so it cannot be compared') }] });
});
