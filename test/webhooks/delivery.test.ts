import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import { termsFor } from '../../emulator/domain/terms.js';
import { enterHosted } from '../../emulator/use-cases/journey/hosted-entry.js';
import { scanPack } from '../../emulator/use-cases/journey/scan.js';
import { findCollectorByEmail } from '../../emulator/store/collectors.js';
import { getPromotion, loadCampaign } from '../../emulator/store/promotions.js';
import { lastScanId, scansAfter } from '../../emulator/store/scans.js';
import { findUnitByCode } from '../../emulator/store/units.js';
import { type RunningEmulator, captureReceiver, enterProduction, recordScan, runningEmulator } from './emulator.js';

let t: RunningEmulator;
const deliveries = async (emulator: RunningEmulator) => (await emulator.api.get('/_emulator/deliveries').expect(200)).body.data as Array<{ id: string; event_id: string }>;
beforeEach(async () => {
  t = await runningEmulator();
});
afterEach(() => t.running.close());

test('a tester scan is never announced; the production scan after it is', async () => {
  await t.createSink({ name: 'crm' });
  recordScan(t.world, { code: envValues(t.world).test_packs[0], email: 'qa.tester@example.test', tester: true });
  const productionScan = recordScan(t.world);
  // An event reaches a sink only through a delivery, stored as the scan is: one, the production scan's.
  const [delivery, ...others] = await deliveries(t);
  expect(others).toEqual([]);
  const events = await t.received('crm', 1);
  expect(events.map((event) => [event.delivery, event.payload.id, (event.payload.data as { scan: { id: number } }).scan.id])).toEqual([[delivery!.id, delivery!.event_id, productionScan]]);
});

test('a production scan reaches a sink as a signed scan.processed delivery with the envelope {id, event, occurred_at, brand, data}', async () => {
  const sink = await t.createSink({ name: 'crm' });
  const scanId = recordScan(t.world);
  const [event] = await t.received('crm', 1);
  expect(event).toMatchObject({ event: 'scan.processed', verified: true, problem: null });
  expect(event!.delivery).toMatch(/^dlv_[0-9a-f]{24}$/);
  expect(Object.keys(event!.payload)).toEqual(['id', 'event', 'occurred_at', 'brand', 'data']);
  expect(event!.payload).toMatchObject({
    id: expect.stringMatching(/^[0-9a-f]{32}$/), event: 'scan.processed', occurred_at: '2026-11-21T10:00:00.000Z',
    brand: { id: expect.any(Number), slug: 'alpenmilch', name: 'Alpenmilch', prefix: 'AM' }, data: { scan: { id: scanId } },
  });
  expect(sink.endpoint.events).toEqual(['scan.processed', 'activation.entered', 'batch.generated', 'batch.export_ready']);
});

test('a hand-written receiver gets POST, JSON, the documented headers and a signature it can verify with the secret it was given', async () => {
  const receiver = await captureReceiver();
  try {
    const endpoint = await t.api.post('/_emulator/webhooks').send({ url: receiver.url }).expect(201);
    recordScan(t.world);
    await vi.waitFor(() => expect(receiver.requests).toHaveLength(1), { timeout: 5000, interval: 20 });
    const [request] = receiver.requests;
    expect(request!.method).toBe('POST');
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json', 'user-agent': 'service-webhooks/1.0', 'x-service-event': 'scan.processed',
      'x-service-delivery': expect.stringMatching(/^dlv_/),
    });
    const [, t0, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(request!.headers['x-service-signature'] as string)!;
    expect(Number(t0)).toBe(Math.floor(t.world.clock.now() / 1000));
    expect(v1).toBe(createHmac('sha256', endpoint.body.secret as string).update(`${t0}.${request!.body}`).digest('hex'));
    expect(JSON.parse(request!.body).event).toBe('scan.processed');
  } finally {
    await receiver.close();
  }
});

test('a production entry is announced as activation.entered with its outcome and reward', async () => {
  await t.createSink({ name: 'crm', events: ['activation.entered'] });
  const entry = await enterProduction(t);
  const [event] = await t.received('crm', 1);
  expect(event!.payload.data).toEqual({
    entry_id: entry.id,
    entered_at: '2026-11-21T10:00:00.000Z',
    activation: { id: expect.any(Number), name: 'Spring Instant Win', activation_type: 'instant_win' },
    outcome: 'won',
    delivery_state: 'delivered',
    reward: { id: expect.any(Number), name: '5 € voucher', reward_type: 'coupon', tier: 'standard', face_value: 5 },
    collector: { id: 1, identified: true },
    unit: { id: expect.any(Number), code: expect.stringMatching(/^AM-/) },
    sku: { id: expect.any(Number), name: expect.any(String), prefix: expect.stringMatching(/^AM-/) },
    country: 'DE',
  });
});

test('a sandbox entry is never announced', async () => {
  await t.createSink({ name: 'crm', events: ['activation.entered', 'batch.generated'] });
  const auth = { Authorization: `Bearer ${envValues(t.world).sandbox_key}` };
  const session = await t.api.post('/api/experience/v1/sessions').set(auth).send({ scenario: 'won' }).expect(201);
  await t.api.post('/api/experience/v1/session/entry').set(auth).set('X-Service-Session', session.body.session_token).send({}).expect(200);
  await t.api.post('/api/v1/brands/alpenmilch/skus/1/batches').set('Authorization', `Bearer ${envValues(t.world).reporting_token}`).send({ quantity: 1, purpose: 'marker' }).expect(202);
  const events = await t.received('crm', 1);
  expect(events.map((event) => event.event)).toEqual(['batch.generated']);
});

test('an endpoint receives only the events it subscribed to', async () => {
  await t.createSink({ name: 'batches', events: ['batch.export_ready'] });
  await t.createSink({ name: 'everything' });
  recordScan(t.world);
  await t.api.post('/api/v1/brands/alpenmilch/skus/1/batches').set('Authorization', `Bearer ${envValues(t.world).reporting_token}`).send({ quantity: 3, purpose: 'x' }).expect(202);
  const all = await t.received('everything', 3);
  expect(all.map((event) => event.event).reverse()).toEqual(['scan.processed', 'batch.generated', 'batch.export_ready']);
  expect((await t.sinkEvents('batches')).map((event) => event.event)).toEqual(['batch.export_ready']);
});

test('a removed endpoint receives nothing more', async () => {
  const sink = await t.createSink({ name: 'crm' });
  recordScan(t.world);
  await t.received('crm', 1);
  const before = await deliveries(t);
  await t.api.post(`/_emulator/webhooks/${sink.endpoint_id}/remove`).send({}).expect(200);
  recordScan(t.world);
  // An event reaches a sink only through a delivery, stored as the scan is: the scan after the removal has none.
  expect(await deliveries(t)).toEqual(before);
  expect(await t.sinkEvents('crm')).toHaveLength(1);
});

test('seeded history is announced only when asked: `seed --scans 30 --webhooks` makes 30 production scans and sends scan.processed for each', async () => {
  await t.createSink({ name: 'crm' });
  await t.api.post('/_emulator/seed').send({ scans: 30 }).expect(200);
  await t.api.post('/_emulator/seed').send({ scans: 30, webhooks: true }).expect(200);
  // Tester scans are never announced: a seed that announces makes none (the quiet one above has its share).
  expect(scansAfter(t.world.db, lastScanId(t.world.db) - 30).filter((scan) => scan.tester === 0)).toHaveLength(30);
  const events = await vi.waitFor(async () => {
    const received = await t.sinkEvents('crm');
    expect(received).toHaveLength(30);
    return received;
  }, { timeout: 5000, interval: 50 });
  expect(events.every((event) => event.event === 'scan.processed' && event.verified)).toBe(true);
});

test('a journey on the hosted page, scan then entry, arrives at the sink as scan.processed then activation.entered, both signed', async () => {
  await t.createSink({ name: 'crm' });
  const unit = findUnitByCode(t.world.db, envValues(t.world).packs.find((pack) => pack.outcome === 'won')!.code)!;
  const collector = findCollectorByEmail(t.world.db, 'anna.weber@example.test')!;
  const promotion = getPromotion(t.world.db, unit.promotion_id!);
  scanPack(t.world, unit, collector, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148');
  enterHosted(t.world, { campaign: loadCampaign(t.world.db, promotion.id), collector, unit }, { accepted: true, age_confirmed: true, terms_version: termsFor(promotion, collector.country).version });
  const events = (await t.received('crm', 2)).reverse();
  expect(events.map((event) => [event.event, event.verified])).toEqual([['scan.processed', true], ['activation.entered', true]]);
  expect(events[0]!.payload.data).toMatchObject({ scan: { unit: { code: unit.code }, device_type: 'mobile', country: 'DE' }, collector: { id: collector.id } });
  expect(events[1]!.payload.data).toMatchObject({ outcome: 'won', unit: { code: unit.code }, collector: { id: collector.id } });
});
