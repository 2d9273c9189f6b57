/**
 * The only SQL a test runs itself. Everything else a test reads or writes goes through the store
 * modules (emulator/store/); what is here does what the product never does, on purpose: it watches
 * or inspects the storage from outside, recounts it independently of the code under test, or
 * tampers with it to build a state the product cannot reach (an old schema, a failed commit).
 * Each function says why the store has no such function.
 */
import { connect } from '../../emulator/store/connection.js';
import type { Db } from '../../emulator/store/db.js';
import { MIGRATIONS } from '../../emulator/store/schema.js';
import { tableNames } from '../../emulator/store/snapshot.js';

/**
 * Temporary triggers on every table record which tables a request wrote: cheaper than a snapshot
 * of the whole database after each of ten thousand fuzzed requests, and exact about updates.
 * Watching writes from outside is the fuzzer's job, not the product's.
 */
export function watchTableWrites(db: Db): { take(): string[] } {
  db.exec('CREATE TEMP TABLE IF NOT EXISTS fuzz_changes (tbl TEXT NOT NULL)');
  for (const name of tableNames(db)) {
    for (const operation of ['INSERT', 'UPDATE', 'DELETE']) {
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS "fuzz_${name}_${operation}" AFTER ${operation} ON main."${name}" BEGIN INSERT INTO fuzz_changes VALUES ('${name}'); END`);
    }
  }
  const read = db.prepare('SELECT DISTINCT tbl FROM fuzz_changes ORDER BY tbl').pluck();
  const clear = db.prepare('DELETE FROM fuzz_changes');
  return {
    take() {
      const changed = read.all() as string[];
      clear.run();
      return changed;
    },
  };
}

/** SQLite's plan for one of the store's statements, one line per step, every parameter bound to null: how a test checks an index is used. */
export function queryPlan(db: Db, sql: string): string[] {
  const params = (sql.match(/\?/g) ?? []).map(() => null);
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((step) => step.detail);
}

/**
 * Every brand's audience counted afresh from the scans themselves, as the collectors list read it
 * before the counts were kept: the independent oracle the kept counts are checked against, so it
 * must not be the store's own code.
 */
export function recountAudience(db: Db): Array<{ brand_id: number; collector_id: number; scans: number; packs: number; joined_at: number }> {
  return db.prepare(`SELECT brand_id, collector_id, COUNT(*) AS scans, COUNT(DISTINCT unit_id) AS packs, MIN(scanned_at) AS joined_at
    FROM scans WHERE tester = 0 AND collector_id IS NOT NULL GROUP BY brand_id, collector_id ORDER BY brand_id, collector_id`).all() as ReturnType<typeof recountAudience>;
}

/**
 * Turns a database back into what an emulator of schema version `version` left: the tables and
 * columns later migrations added are dropped (`undo`), and `user_version` says `version`. The
 * product only ever migrates forward.
 */
export function rewindSchema(db: Db, version: number, undo: string): void {
  db.exec(undo);
  db.pragma(`user_version = ${version}`);
}

/**
 * A database file as an emulator that had applied only the first `version` migrations left it,
 * holding `rows` (SQL inserts in that old schema): what a migration test opens with today's code.
 */
export function oldDatabase(path: string, version: number, rows: string): void {
  const old = connect(path);
  for (const migration of MIGRATIONS.slice(0, version)) old.exec(migration);
  old.pragma(`user_version = ${version}`);
  old.exec(rows);
  old.close();
}

/** SQLite's own checks of a database file (`integrity_check`, `foreign_key_check`): what a crash test asks after a kill. */
export function integrityReport(db: Db): { integrity: unknown; foreignKeys: unknown } {
  return { integrity: db.pragma('integrity_check'), foreignKeys: db.pragma('foreign_key_check') };
}

/** Rolls back the open transaction under the request path, as a failed COMMIT would: the product never does. */
export function abortOpenTransaction(db: Db): void {
  db.prepare('ROLLBACK').run();
}
