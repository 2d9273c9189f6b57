import { expect, test } from 'vitest';
import type { Entry } from '../../emulator/store/entries.js';
import { type Scan, countScans } from '../../emulator/store/scans.js';
import { packCodeOfUnit } from '../../emulator/store/units.js';
import { distinct, storedCount, storedRows } from '../support/stored.js';
import { FROZEN_AT, testWorld } from '../world.js';
import { reportingWorld } from './reporting.js';

const scans = (t: ReturnType<typeof testWorld>) => storedRows<Scan>(t.world.db, 'scans');
const entries = (t: ReturnType<typeof testWorld>) => storedRows<Entry>(t.world.db, 'entries');

test('the seeded world has thousands of scans across brands, countries and devices, some by testers, with entries and redemptions', () => {
  const t = testWorld();
  const seeded = scans(t);
  expect(seeded.length).toBe(3000);
  expect(distinct(seeded, 'brand_id')).toBe(3);
  expect(distinct(seeded, 'country')).toBeGreaterThanOrEqual(6);
  expect(distinct(seeded, 'device_type')).toBe(3);
  expect(seeded.filter((scan) => scan.tester === 1).length).toBeGreaterThan(20);
  expect(seeded.filter((scan) => scan.collector_id === null).length).toBeGreaterThan(1000);
  expect(distinct(entries(t).filter((entry) => entry.sandbox === 0), 'state')).toBe(3);
  expect(storedCount(t.world.db, 'redemptions')).toBeGreaterThan(20);
});

test('history scans are spread over the 90 days before seeding and none lies in the future', () => {
  const t = testWorld();
  const times = scans(t).map((scan) => scan.scanned_at);
  const [first, last] = [Math.min(...times), Math.max(...times)];
  expect(first).toBeGreaterThanOrEqual(FROZEN_AT - 90 * 86_400_000);
  expect(last).toBeLessThan(FROZEN_AT);
  expect(entries(t).filter((entry) => entry.created_at >= FROZEN_AT)).toHaveLength(0);
});

test('history derives from the seed: the same seed gives the same scans and entries, another seed others', () => {
  const rows = (seed?: string) => {
    const { world } = testWorld({ seed });
    return JSON.stringify([
      storedRows<Scan>(world.db, 'scans').map((scan) => ({ ...scan, code: packCodeOfUnit(world.db, scan.unit_id) })),
      storedRows<Entry>(world.db, 'entries').map(({ id, unit_id, collector_id, state, prize_id, codes }) => ({ id, unit_id, collector_id, state, prize_id, codes })),
    ]);
  };
  expect(rows()).toBe(rows());
  expect(rows('another-seed')).not.toBe(rows());
});

test("history leaves the fixture's packs alone: the same known packs with and without it", () => {
  const quiet = testWorld({ fixture: (fixture) => ({ ...fixture, history: { scans: 0 } }) });
  expect(countScans(quiet.world.db)).toBe(0);
  expect(testWorld().env.packs).toEqual(quiet.env.packs);
});

test('POST /_emulator/seed adds scans for scale testing; a bad count is 400 with details', async () => {
  const t = reportingWorld();
  const res = await t.api.post('/_emulator/seed').send({ scans: 25_000 }).expect(200);
  expect(res.body).toEqual({ scans: 25_000, milliseconds: expect.any(Number) });
  expect(countScans(t.world.db)).toBe(28_000);
  const bad = await t.api.post('/_emulator/seed').send({ scans: 0 }).expect(400);
  expect(bad.body.details).toEqual({ scans: ['must be at least 1'] });
  expect((await t.api.post('/_emulator/seed').send({ scans: 10_000_001 })).body.details).toEqual({ scans: ['must be at most 10000000'] });
});

test('POST /_emulator/seed with "progress": true answers NDJSON: the count after each chunk of 20,000, then the result', async () => {
  const t = reportingWorld();
  const res = await t.api.post('/_emulator/seed').send({ scans: 45_000, progress: true }).expect(200);
  expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
  const lines = res.text.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown);
  expect(lines).toEqual([{ added: 20_000, total: 45_000 }, { added: 40_000, total: 45_000 }, { added: 45_000, total: 45_000 }, { scans: 45_000, milliseconds: expect.any(Number) }]);
  expect(countScans(t.world.db)).toBe(48_000);
});
