import type { Fixture } from '../fixture.js';
import { type Db, clearMeta } from './db.js';
import { seedWorld } from './world.js';

/**
 * Empties every table and seeds the fixture again: the same world as a fresh start. The clock
 * stays where it is. One transaction: a reset the disk has no room for leaves the old world whole.
 */
export function resetWorld(db: Db, fixture: Fixture, seed: string, now: number): void {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>;
  db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      for (const { name } of tables) {
        if (name === 'meta') clearMeta(db, 'clock');
        else db.exec(`DELETE FROM "${name}"`);
      }
      seedWorld(db, fixture, seed, now);
    })();
  } finally {
    db.pragma('foreign_keys = ON');
  }
}
