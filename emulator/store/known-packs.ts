/**
 * Production packs of a promotion not entered yet, with the outcome their seeded draw gives if
 * entered now with full stock and budget: what `emulator env` prints and the harness takes.
 */
import { type ExpectedOutcome, drawNumber, expectedOutcome, outcomeOf } from '../domain/draw.js';
import type { Db } from './db.js';
import type { Campaign } from './promotions.js';

export type KnownPack = { code: string } & ExpectedOutcome;

/** Packs of each outcome that `env` and the dashboard show. */
const PACKS_PER_OUTCOME = 3;

/** Units looked at, at most, per call: a promotion may hold millions of generated codes. */
const PACKS_LOOKED_AT = 50_000;

/** Up to `perOutcome` packs of each outcome the promotion's prizes can give (a pending one counted by how it settles). */
export function unenteredPacks(db: Db, seed: string, { promotion, prizes }: Campaign, perOutcome: number): KnownPack[] {
  const units = unenteredUnits(db, promotion.id, PACKS_LOOKED_AT);
  const wanted = reachableOutcomes(prizes).length;
  const counts = new Map<string, number>();
  const packs: KnownPack[] = [];
  for (const unit of units) {
    const expected = expectedOutcome(drawNumber(seed, promotion.id, unit.id), prizes);
    const kind = kindOf(expected);
    if ((counts.get(kind) ?? 0) >= perOutcome) continue;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    packs.push({ code: unit.code, ...expected });
    if (counts.size === wanted && [...counts.values()].every((count) => count === perOutcome)) break;
  }
  return packs;
}

const PAGE = 1000;

/**
 * The promotion's unentered production units, oldest first, up to `limit`: a merge of its batches'
 * pages, each read through units_by_batch in id order. One query over every unit in id order
 * read all the other promotions' units first: 5M after a few large batches, 10 s for `env`.
 */
function* unenteredUnits(db: Db, promotionId: number, limit: number): Generator<{ id: number; code: string }> {
  const batches = db.prepare('SELECT b.id FROM batches b JOIN skus s ON s.id = b.sku_id WHERE s.promotion_id = ? ORDER BY b.id').pluck().all(promotionId) as number[];
  const page = db.prepare(`SELECT u.id, u.code, u.batch_id AS batch FROM units u WHERE u.batch_id = ? AND u.id > ? AND u.kind = 'production' AND u.recalled = 0
    AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.promotion_id = ? AND e.unit_id = u.id AND e.sandbox = 0) ORDER BY u.id LIMIT ${PAGE}`);
  // Per batch not done: the id of its last unit given out.
  const after = new Map(batches.map((batch) => [batch, 0]));
  let given = 0;
  while (after.size > 0) {
    const rows: Array<{ id: number; code: string; batch: number }> = [];
    const full = new Set<number>();
    // Units above the lowest last id of a full page may come after units of that batch not read yet.
    let safeUpTo = Number.POSITIVE_INFINITY;
    for (const [batch, from] of after) {
      const got = page.all(batch, from, promotionId) as typeof rows;
      rows.push(...got);
      if (got.length === PAGE) {
        full.add(batch);
        safeUpTo = Math.min(safeUpTo, got.at(-1)!.id);
      } else if (got.length === 0) after.delete(batch);
    }
    rows.sort((a, b) => a.id - b.id);
    for (const row of rows) {
      if (row.id > safeUpTo) break;
      yield row;
      if (++given >= limit) return;
      after.set(row.batch, row.id);
    }
    for (const batch of after.keys()) if (!full.has(batch) && !rows.some((row) => row.batch === batch && row.id > safeUpTo)) after.delete(batch);
  }
}

/** The outcomes the draw can give (with full stock and budget): each prize's, and `lost` when the odds leave room for no prize. */
export function reachableOutcomes(prizes: Campaign['prizes']): ExpectedOutcome[] {
  const reachable = prizes.filter((prize) => prize.odds > 0).map(outcomeOf);
  if (prizes.reduce((sum, prize) => sum + prize.odds, 0) < 1) reachable.push(outcomeOf(undefined));
  return [...new Map(reachable.map((outcome) => [kindOf(outcome), outcome])).values()];
}

const kindOf = (expected: ExpectedOutcome) => `${expected.outcome}:${expected.settles_as ?? ''}`;

/** A few unentered production packs of each outcome the promotion's draw can give: what `env` and the dashboard show. */
export function knownOutcomePacks(db: Db, seed: string, campaign: Campaign): KnownPack[] {
  return unenteredPacks(db, seed, campaign, PACKS_PER_OUTCOME);
}
