import { expect, test } from 'vitest';
import { createCollector, listCollectors } from '../../emulator/store/collectors.js';
import type { Entry } from '../../emulator/store/entries.js';
import { brandPromotionIds, findBrandBySlug } from '../../emulator/store/promotions.js';
import { recentScansOfCollector } from '../../emulator/store/scan-reads.js';
import { insertScan } from '../../emulator/store/scans.js';
import { productionUnitsOfBrand } from '../../emulator/store/units.js';
import { storedRows } from '../support/stored.js';
import { BRAND, OTHER_BRAND, type ReportingWorld, reportingWorld } from './reporting.js';

const COLLECTORS = `/brands/${BRAND}/collectors`;

test.each([
  ['limit=0', { limit: ['must be at least 1'] }],
  ['limit=1001', { limit: ['must be at most 1000'] }],
  ['offset=x', { offset: ['must be a whole number'] }],
])('an invalid collectors query (%s) is 422 with details', async (query, details) => {
  const t = reportingWorld();
  expect((await t.get(`${COLLECTORS}?${query}`)).body).toEqual({ error: 'validation_failed', details });
});

test('a collector who never scanned this brand is 404, even one who scanned another brand', async () => {
  const t = reportingWorld();
  const newcomer = createCollector(t.world.db, { email: 'new@example.test', country: 'DE', city: null, now: 0 });
  scan(t, OTHER_BRAND, newcomer.id);
  expect((await t.get(`${COLLECTORS}/${newcomer.id}`)).status).toBe(404);
  expect((await t.get(`/brands/${OTHER_BRAND}/collectors/${newcomer.id}`)).status).toBe(200);
  expect((await t.get(`${COLLECTORS}/999999`)).body).toEqual({ error: 'not_found' });
});

test('a tester, whose scans are all tester scans, is not part of any audience', async () => {
  const t = reportingWorld();
  const tester = listCollectors(t.world.db).find((collector) => collector.tester === 1)!;
  expect((await t.get(`${COLLECTORS}/${tester.id}`)).status).toBe(404);
  const ids = (await t.get(`${COLLECTORS}?limit=1000`)).body.data.map((member: { id: number }) => member.id);
  expect(ids).not.toContain(tester.id);
});

test('counts are brand-scoped: scans of another brand never add to this brand', async () => {
  const t = reportingWorld();
  const before = (await t.get(`${COLLECTORS}/1`).expect(200)).body;
  scan(t, OTHER_BRAND, 1);
  const after = (await t.get(`${COLLECTORS}/1`).expect(200)).body;
  expect(after.scans).toBe(before.scans);
  expect(after.points).toBe(before.points);
  scan(t, BRAND, 1);
  expect((await t.get(`${COLLECTORS}/1`)).body.scans).toBe(before.scans + 1);
});

test('the collector detail has the fields of spec §2.8 and its last 20 scans, newest first, in the scan outcome shape', async () => {
  const t = reportingWorld();
  const res = await t.get(`${COLLECTORS}/1`).expect(200);
  expect(Object.keys(res.body).sort()).toEqual(['id', 'items_claimed', 'joined_at', 'points', 'recent_scans', 'scans']);
  expect(res.body).toMatchObject({ id: 1, points: expect.any(Number), scans: expect.any(Number), items_claimed: expect.any(Number) });
  expect(res.body.scans).toBeGreaterThan(20);
  expect(res.body.recent_scans).toHaveLength(20);
  const times = res.body.recent_scans.map((item: { scan: { scanned_at: string } }) => Date.parse(item.scan.scanned_at));
  expect([...times].sort((a, b) => b - a)).toEqual(times);
  const newest = res.body.recent_scans[0];
  expect((await t.get(`/brands/${BRAND}/scans/${newest.scan.id}`)).body).toEqual(newest);
  expect(res.body.recent_scans.every((item: { collector: { id: number } }) => item.collector.id === 1)).toBe(true);
});

test('points are 10 per distinct pack scanned; items claimed count prizes won in this brand', async () => {
  const t = reportingWorld();
  const { body } = await t.get(`${COLLECTORS}/1`).expect(200);
  // Counted here from the stored scans and entries, not from the audience counts the API reads.
  const brandId = findBrandBySlug(t.world.db, BRAND)!.id;
  const packs = new Set(recentScansOfCollector(t.world.db, brandId, 1, 1_000_000).map((scan) => scan.unit_id)).size;
  const promotions = brandPromotionIds(t.world.db, brandId);
  const won = storedRows<Entry>(t.world.db, 'entries').filter((entry) => promotions.includes(entry.promotion_id) && entry.collector_id === 1 && entry.sandbox === 0 && entry.state !== 'lost').length;
  expect(body.points).toBe(packs * 10);
  expect(body.items_claimed).toBe(won);
});

test('the collectors list is wrapped in data with the §2.8 fields except recent_scans, newest members first', async () => {
  const t = reportingWorld();
  const { data } = (await t.get(COLLECTORS).expect(200)).body as { data: Array<Record<string, unknown>> };
  expect(data.length).toBeGreaterThan(3);
  for (const member of data) expect(Object.keys(member).sort()).toEqual(['id', 'items_claimed', 'joined_at', 'points', 'scans']);
  const joined = data.map((member) => Date.parse(member.joined_at as string));
  expect([...joined].sort((a, b) => b - a)).toEqual(joined);
  expect((await t.get(`${COLLECTORS}?limit=2`)).body.data).toHaveLength(2);
});

test('no email address or other personal data appears in collectors', async () => {
  const t = reportingWorld();
  const list = JSON.stringify((await t.get(`${COLLECTORS}?limit=1000`)).body);
  const detail = JSON.stringify((await t.get(`${COLLECTORS}/1`)).body);
  expect(list + detail).not.toMatch(/@|email|example\.test/);
});

function scan(t: ReportingWorld, slug: string, collectorId: number): void {
  const unit = productionUnitsOfBrand(t.world.db, findBrandBySlug(t.world.db, slug)!.id)[0]!;
  insertScan(t.world.db, { unitId: unit.id, brandId: unit.brand_id, collectorId, tester: false, country: 'DE', city: 'Berlin', deviceType: 'mobile', scannedAt: t.world.clock.now() });
}
