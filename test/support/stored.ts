/**
 * The rows of one table as the store's snapshot (emulator/store/snapshot.ts) gives them, parsed and
 * in id order: for facts about the whole stored world that no product read offers (how many scans
 * the history seeded, across how many countries), without SQL in tests.
 */
import type { Db } from '../../emulator/store/db.js';
import { snapshotTables } from '../../emulator/store/snapshot.js';

export function storedRows<Row = Record<string, unknown>>(db: Db, table: string): Row[] {
  const rows = snapshotTables(db, [table])[table]!.map((row) => JSON.parse(row) as Record<string, unknown>);
  return rows.sort((a, b) => Number(a.id) - Number(b.id)) as Row[];
}

/** How many rows the table holds. */
export function storedCount(db: Db, table: string): number {
  return snapshotTables(db, [table])[table]!.length;
}

/** How many distinct values a column holds across the rows, nulls left out (as SQL's COUNT(DISTINCT)). */
export function distinct<Row>(rows: Row[], column: keyof Row): number {
  return new Set(rows.map((row) => row[column]).filter((value) => value !== null)).size;
}
