/**
 * Every stored row, table by table: what a test compares before and after a refused request to
 * prove it changed nothing stored, and counts to prove what an accepted one stored. Rows come as
 * JSON text, sorted, so two snapshots of the same data are equal whatever order SQLite reads them in.
 */
import type { Db } from './db.js';

export type Snapshot = Record<string, string[]>;

/** The names of the database's own tables, SQLite's internal ones left out, in order. */
export function tableNames(db: Db): string[] {
  return db.prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
}

/** The rows of `tables` (every table when omitted); an unknown table name throws. */
export function snapshotTables(db: Db, tables?: readonly string[]): Snapshot {
  const known = tableNames(db);
  const unknown = (tables ?? []).filter((table) => !known.includes(table));
  if (unknown.length > 0) throw new Error(`snapshotTables: no table named ${unknown.join(', ')}`);
  return Object.fromEntries(
    (tables ?? known).map((table) => [table, (db.prepare(`SELECT * FROM main."${table}"`).all() as unknown[]).map((row) => JSON.stringify(row)).sort()]),
  );
}
