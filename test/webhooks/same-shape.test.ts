import { afterEach, beforeEach, expect, test } from 'vitest';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import { type RunningEmulator, enterProduction, recordScan, runningEmulator } from './emulator.js';

let t: RunningEmulator;
beforeEach(async () => {
  t = await runningEmulator();
});
afterEach(() => t.running.close());

const read = (path: string) => t.api.get(`/api/v1/brands/alpenmilch${path}`).set('Authorization', `Bearer ${envValues(t.world).reporting_token}`).expect(200);

test('the scan.processed payload equals the single-scan read, for a signed-in and an anonymous scan (one serializer)', async () => {
  await t.createSink({ name: 'crm', events: ['scan.processed'] });
  const signedIn = recordScan(t.world);
  const anonymous = recordScan(t.world, { email: null });
  const events = await t.received('crm', 2);
  const payloads = new Map(events.map((event) => [(event.payload.data as { scan: { id: number } }).scan.id, event.payload.data]));
  for (const scanId of [signedIn, anonymous]) {
    const { body } = await read(`/scans/${scanId}`);
    expect(payloads.get(scanId)).toEqual(body);
    expect((await read('/scans?limit=1000')).body.data.find((item: { scan: { id: number } }) => item.scan.id === scanId)).toEqual(body);
  }
  expect((payloads.get(anonymous) as { collector: unknown }).collector).toBeNull();
});

test('a scan read after the entry shows the entry; the scan.processed sent at scan time showed the outcome then', async () => {
  await t.createSink({ name: 'crm', events: ['scan.processed'] });
  const code = envValues(t.world).packs.find((pack) => pack.outcome === 'won')!.code;
  const scanId = recordScan(t.world, { code });
  const [event] = await t.received('crm', 1);
  expect((event!.payload.data as { eligibility: Array<{ outcome: string }> }).eligibility.map((item) => item.outcome)).toEqual(['needs_terms']);
  await enterProduction(t);
  const { body } = await read(`/scans/${scanId}`);
  expect(body.eligibility).toEqual([expect.objectContaining({ outcome: 'won', entry_id: expect.any(Number) })]);
  expect({ ...body, eligibility: [] }).toEqual({ ...(event!.payload.data as object), eligibility: [] });
});
