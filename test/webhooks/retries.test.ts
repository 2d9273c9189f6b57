import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { type RunningEmulator, recordScan, runningEmulator } from './emulator.js';

let t: RunningEmulator;
beforeEach(async () => {
  t = await runningEmulator();
});
afterEach(() => t.running.close());

interface DeliveryView {
  id: string;
  event_id: string;
  state: string;
  next_attempt_at: string | null;
  replay_of: string | null;
  attempts: Array<{ number: number; at: string; status: number | null; error: string | null; response: string | null }>;
}

const deliveries = async () => (await t.api.get('/_emulator/deliveries').expect(200)).body.data as DeliveryView[];
const advance = (duration: string) => t.api.post('/_emulator/clock').send({ advance: duration }).expect(200);
const attemptsSettle = (count: number) =>
  vi.waitFor(async () => {
    const [delivery] = await deliveries();
    expect(delivery!.attempts).toHaveLength(count);
    return delivery!;
  }, { timeout: 5000, interval: 20 });

test('a failed delivery retries on the virtual clock after 30 s, then 2 min, recording every attempt and its response', async () => {
  await t.createSink({ name: 'crm', respond_with: 500 });
  recordScan(t.world);
  const first = await attemptsSettle(1);
  expect(first).toMatchObject({ state: 'pending', next_attempt_at: '2026-11-21T10:00:30.000Z' });
  expect(first.attempts[0]).toMatchObject({ number: 1, at: '2026-11-21T10:00:00.000Z', status: 500, error: null, response: '{"received":true}' });

  // Not before: an attempt records the virtual time it went out, so one sent a second early would be
  // the second attempt, at 10:00:29.
  await advance('29s');
  await advance('1s');
  const second = await attemptsSettle(2);
  expect(second).toMatchObject({ state: 'pending', next_attempt_at: '2026-11-21T10:02:30.000Z' });
  expect(second.attempts[1]).toMatchObject({ number: 2, at: '2026-11-21T10:00:30.000Z' });

  await t.api.post('/_emulator/sinks/crm').send({ respond_with: 200 }).expect(200);
  await advance('2m');
  const third = await attemptsSettle(3);
  expect(third.state).toBe('delivered');
  expect(third.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 200]);
  const received = await t.sinkEvents('crm');
  expect(new Set(received.map((event) => event.delivery))).toEqual(new Set([third.id]));
  expect(received.every((event) => event.verified)).toBe(true);
});

/** The retry schedule (spec §6, public reference §4): after attempt N fails, attempt N+1 is due this long after it. */
const SCHEDULE = [
  { after: '30s', justBefore: '29s', at: '2026-11-21T10:00:30.000Z' },
  { after: '2m', justBefore: '1m59s', at: '2026-11-21T10:02:30.000Z' },
  { after: '10m', justBefore: '9m59s', at: '2026-11-21T10:12:30.000Z' },
  { after: '1h', justBefore: '59m59s', at: '2026-11-21T11:12:30.000Z' },
  { after: '6h', justBefore: '5h59m59s', at: '2026-11-21T17:12:30.000Z' },
];

test('after the last retry (six attempts: 30 s, 2 min, 10 min, 1 h and 6 h apart) a delivery is failed, and a replay delivers the same envelope anew', async () => {
  await t.createSink({ name: 'crm', respond_with: 503 });
  recordScan(t.world);
  await attemptsSettle(1);
  for (const [step, { justBefore, at }] of SCHEDULE.entries()) {
    const attempts = step + 1;
    expect((await deliveries())[0]).toMatchObject({ state: 'pending', next_attempt_at: at });
    // Not before: a retry sent a second short of its time would be recorded at that time, not at `at`.
    await advance(justBefore);
    await advance('1s');
    const retried = await attemptsSettle(attempts + 1);
    expect(retried.attempts[attempts]).toMatchObject({ number: attempts + 1, at, status: 503 });
  }
  const failed = (await deliveries())[0]!;
  expect(failed).toMatchObject({ state: 'failed', next_attempt_at: null });
  expect(failed.attempts.map((attempt) => attempt.status)).toEqual([503, 503, 503, 503, 503, 503]);

  await t.api.post('/_emulator/sinks/crm').send({ respond_with: 200 }).expect(200);
  const replay = await t.api.post(`/_emulator/deliveries/${failed.id}/replay`).send({}).expect(202);
  expect(replay.body).toMatchObject({ id: expect.stringMatching(/^dlv_/), event_id: failed.event_id, replay_of: failed.id, state: 'pending', attempts: [] });
  const delivered = await vi.waitFor(async () => {
    const view = (await t.api.get(`/_emulator/deliveries/${replay.body.id}`).expect(200)).body as DeliveryView;
    expect(view.state).toBe('delivered');
    return view;
  }, { timeout: 5000, interval: 20 });
  expect(delivered.id).not.toBe(failed.id);
  const [newest] = await t.sinkEvents('crm');
  expect(newest).toMatchObject({ delivery: replay.body.id, verified: true });
  expect(newest!.payload.id).toBe(failed.event_id);
});

test('an unreachable endpoint records attempts without a status, with the network error', async () => {
  const closed = createServer();
  await new Promise<void>((ready) => closed.listen(0, '127.0.0.1', ready));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((done) => closed.close(() => done()));
  await t.api.post('/_emulator/webhooks').send({ url: `http://127.0.0.1:${port}/gone` }).expect(201);
  recordScan(t.world);
  const delivery = await attemptsSettle(1);
  expect(delivery.attempts[0]).toMatchObject({ status: null, error: 'ECONNREFUSED', response: null });
  expect(delivery.state).toBe('pending');
});

test('replaying an unknown delivery is 404', async () => {
  const res = await t.api.post('/_emulator/deliveries/dlv_nope/replay').send({});
  expect(res.status).toBe(404);
});
