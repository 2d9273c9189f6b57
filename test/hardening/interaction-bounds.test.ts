/**
 * Round three, item 3: the interaction log kept every rejected call's body whole (up to 100 KB):
 * 1,669 calls grew the database by 161 MB in 20 s, and `GET /_emulator/interactions?limit=1000`
 * answered 100 MB while every other call waited. Now a body is kept up to 4 KB of JSON with its
 * size noted, each key keeps its newest 5,000 rows, and a read answers at most 512 KB of bodies
 * (the next page starts after its last row). Checked by sizes and counts, not by time.
 */
import { expect, test } from 'vitest';
import { flushInteractions, recordInteraction } from '../../emulator/store/interaction-rows.js';
import { BODY_KEPT, PAGE_BODY_CHARS, ROWS_PER_KEY } from '../../emulator/store/interactions.js';
import { testWorld } from '../world.js';

const bulky = () => ({ filler: 'x'.repeat(90 * 1024) });

test('a rejected call\'s 90 KB body is kept as its first 4 KB, its size noted', async () => {
  const t = testWorld();
  for (let i = 0; i < 20; i++) expect((await t.experience('post', '/sessions').send(bulky())).status).toBe(400);
  flushInteractions(t.world.db);
  const { longest, rows } = t.world.db.prepare('SELECT max(length(body)) AS longest, count(*) AS rows FROM interactions').get() as { longest: number; rows: number };
  expect(rows).toBe(20);
  expect(longest).toBeLessThan(BODY_KEPT + 300);
  const [row] = (await t.api.get('/_emulator/interactions?limit=1')).body.data as Array<{ body: { truncated: string; start: string } }>;
  expect(row!.body.truncated).toContain(`had ${JSON.stringify(bulky()).length} bytes`);
  expect(row!.body.start).toHaveLength(BODY_KEPT);
});

test('each key keeps its newest 5,000 rows; another key\'s rows stay', () => {
  const t = testWorld();
  const { db } = t.world;
  const call = (keyId: number | null, n: number) => ({ at: n, key_id: keyId, session_id: null, method: 'GET', path: '/api/experience/v1/campaign', status: 200, error: null, body: null });
  for (let n = 0; n < 10; n++) recordInteraction(db, call(2, n));
  flushInteractions(db);
  for (let n = 0; n < ROWS_PER_KEY + 1200; n++) {
    recordInteraction(db, call(1, n));
    if (n % 100 === 99) flushInteractions(db);
  }
  flushInteractions(db);
  const counts = db.prepare('SELECT key_id, count(*) AS n, min(at) AS oldest FROM interactions GROUP BY key_id ORDER BY key_id').all();
  expect(counts[0]).toEqual({ key_id: 1, n: expect.any(Number), oldest: expect.any(Number) });
  const [flooded, other] = counts as Array<{ n: number; oldest: number }>;
  expect(flooded!.n).toBeGreaterThanOrEqual(ROWS_PER_KEY);
  expect(flooded!.n).toBeLessThan(ROWS_PER_KEY + 500);
  expect(flooded!.oldest).toBe(ROWS_PER_KEY + 1200 - flooded!.n);
  expect(other!.n).toBe(10);
});

test('a read of 1,000 rows of 4 KB bodies answers at most 512 KB of bodies, and the next page goes on from there', async () => {
  const t = testWorld();
  for (let i = 0; i < 300; i++) expect((await t.experience('post', '/sessions').send(bulky())).status).toBe(400);
  const first = await t.api.get('/_emulator/interactions?limit=1000');
  const rows = first.body.data as Array<{ id: number }>;
  expect(first.text.length).toBeLessThan(PAGE_BODY_CHARS + 64 * 1024);
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.length).toBeLessThan(300);
  const next = (await t.api.get(`/_emulator/interactions?limit=1000&after=${rows.at(-1)!.id}`)).body.data as Array<{ id: number }>;
  expect(next[0]!.id).toBe(rows.at(-1)!.id + 1);
});
