/**
 * Polling judged where the agency decides it: an interval the page decided is measured between
 * its own requests, since the service sees it shorter by the difference of the backend's latency
 * for the two polls. On made-up facts, then live: the single-page agency verified with two busy
 * CPU threads beside the run gives the verdict it gives on a quiet machine, and its too-fast
 * polling still fails.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { BEHAVIOUR_CHECKS } from '../../harness/checks/behaviour.js';
import { ConfigSchema } from '../../harness/config.js';
import type { ObservedCall } from '../../harness/emulator-client/client.js';
import { RunFacts } from '../../harness/run/facts.js';
import { useChromium } from '../support/chromium.js';
import { harnessWorld } from './world.js';

const check = BEHAVIOUR_CHECKS.find((candidate) => candidate.id === 'behaviour.polling_intervals')!;
const browser = useChromium();

/** A pending entry served at t=100 ms, then three polls; `page`: when the page sent each request (entry first) that the service call followed. */
function watched(served: number[], page: number[]): RunFacts {
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, '/tmp');
  facts.polls.push({ scenario: 'polling-schedule', journey: 'main', pack: 'P1', mode: 'schedule', from: served[0]!, until: 20_000 });
  facts.calls.push(...served.slice(1).map((at, index): ObservedCall => ({
    seq: index + 2, at, method: 'GET', path: '/session', environment: 'production', key_id: 2, session_id: 1, pack: 'P1', scenario: null, status: 200, body: null,
  })));
  facts.requests.push(...page.map((at) => ({ scenario: 'polling-schedule', journey: 'main', at, method: 'GET', url: 'http://127.0.0.1:3000/api/status', referer: undefined, resourceType: 'fetch', from: 'http://127.0.0.1:3000/result' })));
  return facts;
}

test('seen 5: a page that waited 2, 5 and 10 s passes, though its backend took 0.9 s for one poll and 0.3 s for the next (4.4 s apart at the service)', () => {
  const verdict = check.evaluate(watched([100, 2900, 7300, 17200], [0, 2000, 7000, 17000]))!;
  expect([verdict.status, verdict.reason]).toEqual(['pass', expect.stringMatching(/^on schedule/)]);
  expect(verdict.evidence[0]!.label).toBe('polling-schedule: 3 poll(s) in 20 s after the entry, at intervals 2.8 s (page), 5.0 s (page), 10.0 s (page)');
});

test('a page that polls too soon fails, measured at the service or between its requests alike', () => {
  expect(check.evaluate(watched([100, 2900, 4000, 5100], [0, 2000, 3900, 5000]))!.status).toBe('fail');
  // The server polling by itself, between the page's requests: judged at the service.
  expect(check.evaluate(watched([100, 2300, 3400, 4500], [0]))!.status).toBe('fail');
});

describe('behaviour.polling_stops: no poll after the delivery settled', () => {
  const stops = BEHAVIOUR_CHECKS.find((candidate) => candidate.id === 'behaviour.polling_stops')!;
  /** An entry at t=0, polls at 2, 7 and 17 s answered pending (the delivery settled at 22 s), the stops watch ending at `until`. */
  const settledLate = (until: number) => {
    const facts = watched([0, 2000, 7000, 17_000], []);
    facts.polls.splice(0, 1, { scenario: 'polling-stops-failed', journey: 'main', pack: 'P1', mode: 'stops', from: 0, until });
    return stops.evaluate(facts)!;
  };
  test('seen on a loaded machine: a watch that ended at 42 s, before the 30 s poll was due at 47 s, cannot tell: inconclusive, not a failure', () => {
    expect(settledLate(42_000)).toMatchObject({ status: 'inconclusive', reason: expect.stringContaining('before the next poll was due'), configure: expect.stringContaining('watch_polling') });
  });
  test('a watch that outlasted the due poll and its lateness (47 s + 5 s) saw the agency stop polling too soon: a failure', () => {
    expect(settledLate(52_000)).toMatchObject({ status: 'fail', reason: expect.stringContaining('the next was due 52 s after the entry, 5 s late included') });
  });
});

/** Two threads spinning for as long as the run takes: the two cores a loaded CI machine does not have. */
function burnCpu(): () => Promise<number[]> {
  const workers = [0, 1].map(() => new Worker('for (;;) {}', { eval: true }));
  return () => Promise.all(workers.map((worker) => worker.terminate()));
}

describe('under load', () => {
  test('the single-page agency: polling and Retry-After pass with two busy cores beside the run, and its too-fast polling still fails', async ({ onTestFinished }) => {
    const only = ['behaviour.polling_intervals', 'behaviour.retry_after_honoured'];
    const [correct, defect] = await Promise.all([harnessWorld({ kind: 'spa', approved: true, config: { trace: 'off' } }), harnessWorld({ kind: 'spa', approved: true, defects: ['polls-every-2s'], config: { trace: 'off' } })]);
    onTestFinished(async () => {
      await correct.close();
      await defect.close();
    });
    const stop = burnCpu();
    try {
      const [quiet, loaded] = await Promise.all([correct.verify({ only, browser: browser() }), defect.verify({ only, browser: browser() })]);
      expect(quiet.checks.map((item) => [item.id, item.status, item.reason])).toEqual(only.map((id) => [id, 'pass', expect.any(String)]));
      expect(loaded.checks.find((item) => item.id === 'behaviour.polling_intervals')?.status).toBe('fail');
    } finally {
      await stop();
    }
  }, 300_000);
});
