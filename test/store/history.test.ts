/**
 * The seeded history's entries are drawn and stored as every entry is: a prize out of stock is not
 * won (domain/draw.ts `canAward`), and a delayed delivery starts as any does and is stored as it
 * stands at seeding (domain/delivery.ts), through the entries table's one writer.
 */
import { describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../emulator/store/db.js';
import type { Entry } from '../../emulator/store/entries.js';
import { seedHistory } from '../../emulator/store/history.js';
import { defaultPromotionId, listPrizes } from '../../emulator/store/promotions.js';
import { seedWorld } from '../../emulator/store/world.js';
import { DEFAULT_FIXTURE as FIXTURE, FROZEN_AT as NOW } from '../world.js';

const world = () => openDb(':memory:', (db) => seedWorld(db, { ...FIXTURE, history: { scans: 0 } }, FIXTURE.seed, NOW));
const historyEntries = (db: Db) => db.prepare('SELECT * FROM entries WHERE sandbox = 0').all() as Entry[];

describe('the seeded history', () => {
  it('wins no prize that is out of stock', () => {
    const db = world();
    const [first, ...others] = listPrizes(db, defaultPromotionId(db));
    db.prepare('UPDATE prizes SET stock = 0 WHERE id = ?').run(first!.id);
    seedHistory(db, FIXTURE.seed, NOW, 3000);
    const won = new Set(historyEntries(db).map((entry) => entry.prize_id));
    expect(won.has(first!.id)).toBe(false);
    expect(others.some((prize) => won.has(prize.id))).toBe(true);
  });

  it('stores a delayed delivery as it stands at seeding: delivered by its due time, or failed', () => {
    const db = world();
    seedHistory(db, FIXTURE.seed, NOW, 3000);
    const delayed = historyEntries(db).filter((entry) => entry.delivery_outcome !== null);
    expect(delayed.length).toBeGreaterThan(0);
    for (const entry of delayed) {
      expect(entry.delivery_due_at).toBe(entry.created_at + 30_000);
      expect([entry.state, entry.delivery_state]).toEqual(entry.delivery_outcome === 'delivered' ? ['won', 'delivered'] : ['failed', 'failed']);
    }
  });
});
