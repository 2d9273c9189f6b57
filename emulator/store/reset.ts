import type { Fixture } from '../fixture.js';
import type { Db } from './db.js';
import { seedWorld } from './world.js';

/** Empties every table and seeds the fixture again: the same world as a fresh start. The clock stays where it is. */
export function resetWorld(db: Db, fixture: Fixture, seed: string, now: number): void {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>;
  db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      for (const { name } of tables) db.exec(name === 'meta' ? "DELETE FROM meta WHERE key <> 'clock'" : `DELETE FROM "${name}"`);
    })();
  } finally {
    db.pragma('foreign_keys = ON');
  }
  seedWorld(db, fixture, seed, now);
}
