import { expect, test } from 'vitest';
import { FROZEN_AT, testWorld } from '../world.js';
import { reportingWorld } from './reporting.js';

const count = (t: ReturnType<typeof testWorld>, sql: string) => (t.world.db.prepare(sql).get() as { n: number }).n;

test('the seeded world has thousands of scans across brands, countries and devices, some by testers, with entries and redemptions', () => {
  const t = testWorld();
  expect(count(t, 'SELECT COUNT(*) AS n FROM scans')).toBe(3000);
  expect(count(t, 'SELECT COUNT(DISTINCT brand_id) AS n FROM scans')).toBe(3);
  expect(count(t, 'SELECT COUNT(DISTINCT country) AS n FROM scans')).toBeGreaterThanOrEqual(6);
  expect(count(t, 'SELECT COUNT(DISTINCT device_type) AS n FROM scans')).toBe(3);
  expect(count(t, 'SELECT COUNT(*) AS n FROM scans WHERE tester = 1')).toBeGreaterThan(20);
  expect(count(t, 'SELECT COUNT(*) AS n FROM scans WHERE collector_id IS NULL')).toBeGreaterThan(1000);
  expect(count(t, "SELECT COUNT(DISTINCT state) AS n FROM entries WHERE sandbox = 0")).toBe(3);
  expect(count(t, 'SELECT COUNT(*) AS n FROM redemptions')).toBeGreaterThan(20);
});

test('history scans are spread over the 90 days before seeding and none lies in the future', () => {
  const t = testWorld();
  const { first, last } = t.world.db.prepare('SELECT MIN(scanned_at) AS first, MAX(scanned_at) AS last FROM scans').get() as { first: number; last: number };
  expect(first).toBeGreaterThanOrEqual(FROZEN_AT - 90 * 86_400_000);
  expect(last).toBeLessThan(FROZEN_AT);
  expect(count(t, `SELECT COUNT(*) AS n FROM entries WHERE created_at >= ${FROZEN_AT}`)).toBe(0);
});

test('history derives from the seed: the same seed gives the same scans and entries, another seed others', () => {
  const rows = (seed?: string) => {
    const { world } = testWorld({ seed });
    return JSON.stringify([
      world.db.prepare('SELECT s.*, u.code FROM scans s JOIN units u ON u.id = s.unit_id ORDER BY s.id').all(),
      world.db.prepare('SELECT id, unit_id, collector_id, state, prize_id, codes FROM entries ORDER BY id').all(),
    ]);
  };
  expect(rows()).toBe(rows());
  expect(rows('another-seed')).not.toBe(rows());
});

test("history leaves the fixture's packs alone: the same known packs with and without it", () => {
  const quiet = testWorld({ fixture: (fixture) => ({ ...fixture, history: { scans: 0 } }) });
  expect(count(quiet, 'SELECT COUNT(*) AS n FROM scans')).toBe(0);
  expect(testWorld().env.packs).toEqual(quiet.env.packs);
});

test('POST /_emulator/seed adds scans for scale testing; a bad count is 400 with details', async () => {
  const t = reportingWorld();
  const res = await t.api.post('/_emulator/seed').send({ scans: 25_000 }).expect(200);
  expect(res.body).toEqual({ scans: 25_000, milliseconds: expect.any(Number) });
  expect(count(t, 'SELECT COUNT(*) AS n FROM scans')).toBe(28_000);
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
  expect(count(t, 'SELECT COUNT(*) AS n FROM scans')).toBe(48_000);
});
