/** Collectors: the people who scan packs and sign in. */
import type { Db } from './db.js';

export interface Collector {
  id: number;
  email: string;
  country: string | null;
  city: string | null;
  tester: number;
}

const COLUMNS = 'id, email, country, city, tester';

export function listCollectors(db: Db): Collector[] {
  return db.prepare(`SELECT ${COLUMNS} FROM collectors ORDER BY id`).all() as Collector[];
}

export function findCollector(db: Db, id: number): Collector | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM collectors WHERE id = ?`).get(id) as Collector | undefined;
}

export function findCollectorByEmail(db: Db, email: string): Collector | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM collectors WHERE email = ? COLLATE NOCASE`).get(email) as Collector | undefined;
}

/** A collector who signs up, or one the fixture seeds (who may be a tester and have no country). */
export function createCollector(db: Db, input: { email: string; country: string | null; city: string | null; tester?: boolean; now: number }): Collector {
  return db
    .prepare(`INSERT INTO collectors (email, country, city, tester, joined_at) VALUES (?, ?, ?, ?, ?) RETURNING ${COLUMNS}`)
    .get(input.email, input.country, input.city, input.tester ? 1 : 0, input.now) as Collector;
}
