import { installCache } from '../fast-path/cache.js';
import { fastStatements } from '../fast-path/statements.js';
import { connect, type Db } from './connection.js';
import { MIGRATIONS } from './schema.js';

export type { Db } from '../fast-path/connection.js';

/**
 * Opens (or creates) the database at `path` (`:memory:` in tests), brings its schema up to date
 * and runs `setUp` (e.g. seeding). A new database is created and set up without waiting for the
 * disk (`synchronous = OFF`): nothing is there to lose yet, and the waits cost more than the rest
 * of a fresh start. Then, as always, WAL with `synchronous = NORMAL`: a commit survives a crash of
 * the process, and of the machine once the next checkpoint has synced it.
 */
export function openDb(path: string, setUp?: (db: Db) => void): Db {
  const db = connect(path);
  const created = schemaVersion(db) === 0;
  if (!created) checkPages(db);
  db.pragma(`synchronous = ${created ? 'OFF' : 'NORMAL'}`);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  fastStatements(db);
  for (let version = schemaVersion(db); version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  installCache(db);
  setUp?.(db);
  if (created) db.pragma('synchronous = NORMAL');
  return db;
}

/** A database whose pages are damaged: every route would fail on it, so it is not served. */
export class DamagedDatabase extends Error {
  readonly code = 'SQLITE_CORRUPT';
}

/**
 * `PRAGMA quick_check` before serving: a database with pages corrupted in the middle opens fine and
 * then fails on every read that reaches them (a bad header or a truncated file fails at once).
 */
function checkPages(db: Db): void {
  let problem: string;
  try {
    problem = db.pragma('quick_check(1)', { simple: true }) as string;
  } catch (error) {
    problem = (error as Error).message;
  }
  if (problem === 'ok') return;
  db.close();
  throw new DamagedDatabase(problem.split('\n')[0]!.slice(0, 200));
}

/** How many of MIGRATIONS the database has applied. */
export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** The next value of a named counter; serials for deterministic secrets come from here. */
export function nextSerial(db: Db, name: string): number {
  const row = db
    .prepare('INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value')
    .get(name) as { value: number };
  return row.value;
}

export function getMeta(db: Db, key: string): string | undefined {
  return (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
}

export function setMeta(db: Db, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** Sets `key` unless it has a value: the value that stays is the first one written, by whichever process. */
export function setMetaOnce(db: Db, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING').run(key, value);
}

/** Empties `meta` but for `kept` (a reset keeps the clock). */
export function clearMeta(db: Db, kept: string): void {
  db.prepare('DELETE FROM meta WHERE key <> ?').run(kept);
}

/** Every serial counter's last value (`nextSerial`). */
export function listCounters(db: Db): Record<string, number> {
  const rows = db.prepare('SELECT name, value FROM counters').all() as Array<{ name: string; value: number }>;
  return Object.fromEntries(rows.map((row) => [row.name, row.value]));
}
