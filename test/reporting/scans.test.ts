import { expect, test } from 'vitest';
import { listCollectors } from '../../emulator/store/collectors.js';
import type { Entry } from '../../emulator/store/entries.js';
import { findBrandBySlug } from '../../emulator/store/promotions.js';
import { listProductionScans } from '../../emulator/store/scan-reads.js';
import { insertScan } from '../../emulator/store/scans.js';
import { findSkuByPrefix } from '../../emulator/store/skus.js';
import { unitsOfSku } from '../../emulator/store/units.js';
import { storedRows } from '../support/stored.js';
import { BRAND, OTHER_BRAND, type ReportingWorld, reportingWorld } from './reporting.js';

const SCANS = `/brands/${BRAND}/scans`;

test.each([
  ['limit=0', { limit: ['must be at least 1'] }],
  ['limit=1001', { limit: ['must be at most 1000'] }],
  ['limit=ten', { limit: ['must be a whole number'] }],
  ['limit=1.5', { limit: ['must be a whole number'] }],
  ['limit=1&limit=2', { limit: ['must be given once, as text'] }],
  ['offset=-1', { offset: ['must be a whole number'] }],
  ['since=yesterday', { since: [expect.stringContaining('ISO 8601')] }],
  ['until=2026-04-01T00:00:00', { until: [expect.stringContaining('ISO 8601')] }],
  ['since=2026-05-01&until=2026-04-01', { until: ['must not be before since'] }],
])('an invalid scan list query (%s) is 422 with details naming the field', async (query, details) => {
  const t = reportingWorld();
  const res = await t.get(`${SCANS}?${query}`);
  expect(res.status).toBe(422);
  expect(res.body).toEqual({ error: 'validation_failed', details });
});

test('several invalid parameters are all named at once', async () => {
  const t = reportingWorld();
  const res = await t.get(`${SCANS}?limit=0&offset=x&since=x`).expect(422);
  expect(Object.keys(res.body.details).sort()).toEqual(['limit', 'offset', 'since']);
});

test('the scan list is wrapped in data, 100 by default, newest first', async () => {
  const t = reportingWorld();
  const { data } = (await t.get(SCANS).expect(200)).body as { data: Array<{ scan: { scanned_at: string; id: number } }> };
  expect(data).toHaveLength(100);
  const times = data.map((item) => Date.parse(item.scan.scanned_at));
  expect([...times].sort((a, b) => b - a)).toEqual(times);
});

test('limit takes up to 1000 and offset pages on without overlap', async () => {
  const t = reportingWorld();
  expect((await t.get(`${SCANS}?limit=1000`).expect(200)).body.data).toHaveLength(1000);
  const first = (await t.get(`${SCANS}?limit=5`)).body.data.map((item: { scan: { id: number } }) => item.scan.id);
  const second = (await t.get(`${SCANS}?limit=5&offset=5`)).body.data.map((item: { scan: { id: number } }) => item.scan.id);
  const both = (await t.get(`${SCANS}?limit=10`)).body.data.map((item: { scan: { id: number } }) => item.scan.id);
  expect([...first, ...second]).toEqual(both);
});

test('since and until are inclusive bounds on the scan time', async () => {
  const t = reportingWorld();
  const at = '2026-11-01T12:00:00.000Z';
  const id = scanAt(t, Date.parse(at));
  const exactly = (await t.get(`${SCANS}?since=${at}&until=${at}`).expect(200)).body.data;
  expect(exactly.map((item: { scan: { id: number } }) => item.scan.id)).toEqual([id]);
  const later = (await t.get(`${SCANS}?since=2026-11-01T12:00:00.001Z&until=2026-11-02T00:00:00Z&limit=1000`)).body.data;
  expect(later.map((item: { scan: { id: number } }) => item.scan.id)).not.toContain(id);
  for (const item of later) expect(Date.parse(item.scan.scanned_at)).toBeGreaterThan(Date.parse(at));
});

test('a date with an offset and a bare date are accepted as ISO 8601', async () => {
  const t = reportingWorld();
  await t.get(`${SCANS}?since=${encodeURIComponent('2026-11-01T12:00:00+02:00')}`).expect(200);
  await t.get(`${SCANS}?until=2026-11-01`).expect(200);
});

test('tester scans never appear in the list or the read, and tester collectors have no audience record', async () => {
  const t = reportingWorld();
  const testerScans = storedRows<{ id: number; tester: number }>(t.world.db, 'scans').filter((scan) => scan.tester === 1);
  expect(testerScans.length).toBeGreaterThan(0);
  const listed = new Set<number>();
  for (const slug of [BRAND, OTHER_BRAND]) {
    for (const item of (await t.get(`/brands/${slug}/scans?limit=1000`)).body.data) listed.add(item.scan.id);
    for (const { id } of testerScans) expect((await t.get(`/brands/${slug}/scans/${id}`)).status).toBe(404);
  }
  for (const { id } of testerScans) expect(listed.has(id)).toBe(false);
});

test("a brand's scan list and scan read never show another brand's scans", async () => {
  const t = reportingWorld();
  const other = listProductionScans(t.world.db, findBrandBySlug(t.world.db, OTHER_BRAND)!.id, { limit: 1, offset: 0 })[0]!;
  expect((await t.get(`${SCANS}/${other.id}`)).status).toBe(404);
  const skus = (await t.get(`${SCANS}?limit=1000`)).body.data.map((item: { scan: { sku: { prefix: string } } }) => item.scan.sku.prefix);
  expect(skus.every((prefix: string) => prefix.startsWith('AM-'))).toBe(true);
});

test('a scan read returns the outcome shape of spec §2.7 exactly', async () => {
  const t = reportingWorld();
  const won = new Set(storedRows<Entry>(t.world.db, 'entries').filter((entry) => entry.state === 'won').map((entry) => `${entry.unit_id}:${entry.collector_id}`));
  const brandId = findBrandBySlug(t.world.db, BRAND)!.id;
  const entered = storedRows<{ id: number; unit_id: number; collector_id: number | null; brand_id: number; tester: number }>(t.world.db, 'scans')
    .find((scan) => scan.tester === 0 && scan.brand_id === brandId && won.has(`${scan.unit_id}:${scan.collector_id}`))!;
  const res = await t.get(`${SCANS}/${entered.id}`).expect(200);
  expect(res.body).toEqual({
    scan: {
      id: entered.id,
      unit: { id: expect.any(Number), code: expect.stringMatching(/^AM-[A-Z]{3}-\d{6}-[A-Z2-9]{12}$/) },
      sku: { id: expect.any(Number), name: expect.any(String), prefix: expect.stringMatching(/^AM-/) },
      batch_id: expect.any(Number),
      country: expect.stringMatching(/^[A-Z]{2}$/),
      city: expect.any(String),
      device_type: expect.stringMatching(/^(mobile|tablet|desktop)$/),
      scanned_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    },
    collector: { id: expect.any(Number), identified: true },
    eligibility: [
      {
        activation: { id: expect.any(Number), name: 'Spring Instant Win', activation_type: 'instant_win' },
        outcome: 'won',
        entry_id: expect.any(Number),
        reward: { id: expect.any(Number), name: expect.any(String), reward_type: expect.any(String), tier: expect.any(String), face_value: expect.any(Number) },
      },
    ],
  });
});

test('an anonymous scan has no collector and, while the promotion is live, outcome not_signed_in', async () => {
  const t = reportingWorld();
  const id = scanAt(t, t.world.clock.now(), { collectorId: null, country: 'AT' });
  const res = await t.get(`${SCANS}/${id}`).expect(200);
  expect(res.body.collector).toBeNull();
  expect(res.body.eligibility).toEqual([{ activation: expect.any(Object), outcome: 'not_signed_in', entry_id: null, reward: null }]);
});

test("a scan of a pack entered by another collector does not disclose that collector's result", async () => {
  const t = reportingWorld();
  const entry = storedRows<Entry>(t.world.db, 'entries').find((one) => one.state === 'won' && one.sandbox === 0)!;
  const other = listCollectors(t.world.db).find((collector) => collector.id !== entry.collector_id && collector.tester === 0)!;
  const id = scanAt(t, t.world.clock.now(), { collectorId: other.id, unitId: entry.unit_id! });
  expect((await t.get(`${SCANS}/${id}`).expect(200)).body.eligibility).toEqual([]);
});

test('a scan id that is not a whole number is 404', async () => {
  const t = reportingWorld();
  expect((await t.get(`${SCANS}/abc`)).status).toBe(404);
  expect((await t.get(`${SCANS}/0`)).status).toBe(404);
});

test('no email address or other personal data appears in scans', async () => {
  const t = reportingWorld();
  const body = JSON.stringify((await t.get(`${SCANS}?limit=1000`)).body);
  expect(body).not.toMatch(/@|email|example\.test/);
});

function scanAt(t: ReportingWorld, at: number, options: { collectorId?: number | null; country?: string; unitId?: number } = {}): number {
  const unit = options.unitId ?? unitsOfSku(t.world.db, findSkuByPrefix(t.world.db, 'AM-CHO')!.id).find((one) => one.kind === 'production')!.id;
  const brand = findBrandBySlug(t.world.db, BRAND)!;
  return insertScan(t.world.db, {
    unitId: unit, brandId: brand.id, collectorId: options.collectorId === undefined ? 1 : options.collectorId, tester: false,
    country: options.country ?? 'DE', city: 'Berlin', deviceType: 'mobile', scannedAt: at,
  });
}

test('a scan whose collector gave no country writes country and city as "", in the list, the read and the collector\'s recent scans: strings, as declared (issue 40 item 7)', async () => {
  const t = reportingWorld();
  const nowhere = listCollectors(t.world.db).find((collector) => collector.country === null && collector.tester === 0)!;
  const member = await t.get(`/brands/${BRAND}/collectors/${nowhere.id}`);
  expect(member.status).toBe(200);
  const recent = member.body.recent_scans as Array<{ scan: { id: number; country: unknown; city: unknown; device_type: unknown } }>;
  expect(recent.length).toBeGreaterThan(0);
  for (const { scan } of recent) expect([scan.country, scan.city]).toEqual(['', '']);
  const read = await t.get(`/brands/${BRAND}/scans/${recent[0]!.scan.id}`);
  expect([read.body.scan.country, read.body.scan.city]).toEqual(['', '']);
  const list = (await t.get(`/brands/${BRAND}/scans?limit=1000`)).body.data as Array<{ scan: { country: unknown; city: unknown; device_type: unknown } }>;
  expect(list.filter(({ scan }) => scan.country === '').length).toBeGreaterThan(0);
  expect(list.every(({ scan }) => [scan.country, scan.city, scan.device_type].every((value) => typeof value === 'string'))).toBe(true);
  // The served document says so: a string, never null, and what "" means.
  const fields = (await t.api.get('/api/v1/openapi.json')).body.components.schemas.ScanOutcome.properties.scan.properties;
  for (const name of ['country', 'city', 'device_type']) expect(fields[name], name).toMatchObject({ type: 'string', description: expect.stringContaining('the empty string when the service does not know it') });
});
