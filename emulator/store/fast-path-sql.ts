/**
 * The SQL the fast path runs (fast-path/README.md), kept in the store with all other SQL: the
 * turn's transaction statements, and the cache's triggers and `data_version`.
 */
import type { Db } from './connection.js';

export function beginImmediate(db: Db): void {
  db.prepare('BEGIN IMMEDIATE').run();
}

export function commit(db: Db): void {
  db.prepare('COMMIT').run();
}

export function rollback(db: Db): void {
  db.prepare('ROLLBACK').run();
}

/** Has SQLite call `notify(area)` after every write to one of `tables` (temporary triggers, for this connection only); `ignore` names a column whose updates do not count. */
export function watchWrites(db: Db, area: string, tables: ReadonlyArray<{ table: string; ignore?: string }>, notify: string): void {
  for (const { table, ignore } of tables) {
    const columns = (db.pragma(`table_info(${table})`) as Array<{ name: string }>).map((column) => column.name).filter((name) => name !== ignore);
    const body = `BEGIN SELECT ${notify}('${area}'); END`;
    db.exec(`CREATE TEMP TRIGGER ${table}_insert_cache AFTER INSERT ON ${table} ${body};
      CREATE TEMP TRIGGER ${table}_update_cache AFTER UPDATE OF ${columns.join(', ')} ON ${table} ${body};
      CREATE TEMP TRIGGER ${table}_delete_cache AFTER DELETE ON ${table} ${body};`);
  }
}

/** Changes whenever another connection commits to the database. */
export function dataVersion(db: Db): number {
  return db.prepare('PRAGMA data_version').pluck().get() as number;
}
