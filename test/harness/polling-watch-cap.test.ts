/**
 * The polling watch's cap: a page that polls on time for ever while the service keeps the delivery
 * pending extends the watch past its window (each due poll is waited for), but only up to one of
 * the schedule's longest intervals, late; then the watch ends. The step runs in process on a
 * made-up run whose emulator clock moves a second per read, its sleeps instant.
 */
import { expect, test, vi } from 'vitest';
import { ConfigSchema } from '../../harness/config.js';
import type { ObservedCall } from '../../harness/emulator-client/client.js';
import { RunFacts } from '../../harness/run/facts.js';
import { LONGEST_POLL_WAIT_MS, secondsUntilPoll } from '../../harness/run/polling.js';
import type { ScenarioRun } from '../../harness/run/scenario-run.js';
import { STEPS } from '../../harness/run/steps.js';

vi.mock('node:timers/promises', () => ({ setTimeout: async () => undefined }));

const AGENCY = 'http://127.0.0.1:3000';
/** Far past any cap: a watch still reading then has none. */
const NO_CAP_MS = 3_600_000;

/** A run whose page polls exactly on schedule for ever, every read answered pending. */
function pollingForEver(): { run: ScenarioRun; facts: RunFacts } {
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: AGENCY, emulator: 'http://127.0.0.1:4010', callback: `${AGENCY}/callback` }, '/tmp');
  const journey = { scenario: 'polling-stops', journey: 'main', pack: { code: 'P1', outcome: 'won' }, country: 'DE', email: 'h@example.test', consent: [], submissions: [] };
  const call = (seq: number, at: number, method: string, path: string, answer: object) => ({ seq, at, method, path, environment: 'production', pack: 'P1', status: 200, body: null, answer }) as unknown as ObservedCall;
  let now = 0;
  const calls = () => {
    const polls: ObservedCall[] = [];
    for (let poll = 1; secondsUntilPoll(poll) * 1000 <= now; poll += 1) polls.push(call(poll + 1, secondsUntilPoll(poll) * 1000, 'GET', '/session', { delivery_state: 'pending' }));
    return [call(1, 0, 'POST', '/session/entry', { entry_state: 'pending' }), ...polls];
  };
  const client = {
    observed: async () => {
      now += 1000;
      if (now > NO_CAP_MS) throw new Error(`the watch was still reading ${NO_CAP_MS / 60_000} min after the entry: it has no cap`);
      return { now, data: calls() };
    },
  };
  const session = { act: async (work: () => Promise<unknown>) => work(), context: { clock: { runFor: async () => undefined } } };
  const run = {
    facts,
    env: { client, baseline: { calls: 0 } },
    scenario: { id: 'polling-stops', phase: 'production' },
    journey: () => journey,
    session: async () => session,
    observed: async () => (await client.observed()).data,
    observe: async () => undefined,
  } as unknown as ScenarioRun;
  return { run, facts };
}

test('a page polling on time while the service stays pending extends the watch by one longest interval, late, and no more', async () => {
  const { run, facts } = pollingForEver();
  await STEPS.watch_polling(run, { do: 'watch_polling', journey: 'main', mode: 'stops', seconds: 60, polls: 3, quiet_seconds: 9 });
  expect(facts.polls).toHaveLength(1);
  expect(facts.polls[0]).toMatchObject({ mode: 'stops', from: 0, until: 60_000 + LONGEST_POLL_WAIT_MS });
});
