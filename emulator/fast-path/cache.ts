/**
 * In-memory copies of rows every request reads and almost nothing writes: agency keys (by secret),
 * promotions, prizes and brands (and the campaign read made of them), and the webhook endpoints
 * every production entry consults. Temporary triggers report every write to those tables, whoever
 * makes it (a revoke, a pause, a reset, a watched fixture edit, a test's own SQL), and a write
 * empties its area's copies. Hot counters are left out of both the copies and the triggers:
 * a prize's `stock` and a promotion's `budget_spent` are read from the table when the draw needs them.
 *
 * Copies are made only from committed rows: no copy is kept while the transaction that wrote to the
 * area may still be open, since a rollback would leave it describing rows that never were. That
 * transaction has ended once none is open, or once a turn's shared transaction other than the
 * writer is (a turn's transaction begins only when no other is open: turn-transaction.ts).
 *
 * Triggers see this connection's writes only. Another process serving the same data folder (the
 * concurrency tests run two) commits unseen, so once per event-loop turn `PRAGMA data_version`,
 * which changes with every commit of another connection, says whether to drop every copy.
 * Kept for the bench's guards (decisions/013).
 */
import type { Db } from './connection.js';
import type { Turn } from './turn-transaction.js';

export type CacheArea = 'keys' | 'catalog' | 'webhooks';

/** Per area: the tables whose writes empty it, and the columns whose updates do not. */
const WATCHED: Record<CacheArea, Array<{ table: string; ignore?: string }>> = {
  keys: [{ table: 'agency_keys' }],
  catalog: [{ table: 'promotions', ignore: 'budget_spent' }, { table: 'prizes', ignore: 'stock' }, { table: 'brands' }],
  webhooks: [{ table: 'webhook_endpoints' }],
};

interface Area {
  values: Map<string | number, unknown>;
  /** The transaction that wrote to the area, not yet seen to end (the turn's, or `OTHER`): copy nothing until it has. */
  writtenIn: Turn | typeof OTHER | undefined;
}

export interface Cache {
  areas: Record<CacheArea, Area>;
  dataVersion: number;
  /** Checked `data_version` in this event-loop turn. */
  checked: boolean;
}

declare module './connection.js' {
  interface ConnectionState {
    /** The copies of rows every request reads, once installed. */
    cache?: Cache | undefined;
  }
}

/** Called once per connection, after the migrations: the triggers live as long as the connection. */
export function installCache(db: Db): void {
  const areas: Record<CacheArea, Area> = { keys: { values: new Map(), writtenIn: undefined }, catalog: { values: new Map(), writtenIn: undefined }, webhooks: { values: new Map(), writtenIn: undefined } };
  db.function('emulator_cache_written', { deterministic: false }, (name: unknown) => {
    const area = areas[name as CacheArea];
    area.values.clear();
    if (db.inTransaction) area.writtenIn = db.state.turn ?? OTHER;
    return null;
  });
  for (const [area, tables] of Object.entries(WATCHED)) watchWrites(db, area, tables, 'emulator_cache_written');
  db.state.cache = { areas, dataVersion: dataVersion(db), checked: false };
}

/** The copy of `id` in `area`, loaded (and kept, when it may be) on a miss. `undefined` is never kept. */
export function cached<T>(db: Db, name: CacheArea, id: string | number, load: () => T): T {
  const cache = db.state.cache;
  if (!cache) return load();
  if (!cache.checked) checkOtherWriters(db, cache);
  const area = cache.areas[name];
  if (area.writtenIn !== undefined && ended(db, area.writtenIn)) area.writtenIn = undefined;
  if (area.values.has(id)) return area.values.get(id) as T;
  const value = load();
  if (value !== undefined && area.writtenIn === undefined) area.values.set(id, value);
  return value;
}

/** A transaction that is not a turn's. */
const OTHER = Symbol('a transaction other than a turn\'s');

function ended(db: Db, writer: Turn | typeof OTHER): boolean {
  const turn = db.state.turn;
  return !db.inTransaction || (turn !== undefined && turn !== writer);
}

function checkOtherWriters(db: Db, cache: Cache): void {
  cache.checked = true;
  setImmediate(() => (cache.checked = false));
  const version = dataVersion(db);
  if (version === cache.dataVersion) return;
  cache.dataVersion = version;
  for (const area of Object.values(cache.areas)) area.values.clear();
}

/** Has SQLite call `notify(area)` after every write to one of `tables` (temporary triggers, for this connection only); `ignore` names a column whose updates do not count. */
function watchWrites(db: Db, area: string, tables: ReadonlyArray<{ table: string; ignore?: string }>, notify: string): void {
  for (const { table, ignore } of tables) {
    const columns = (db.pragma(`table_info(${table})`) as Array<{ name: string }>).map((column) => column.name).filter((name) => name !== ignore);
    const body = `BEGIN SELECT ${notify}('${area}'); END`;
    db.exec(`CREATE TEMP TRIGGER ${table}_insert_cache AFTER INSERT ON ${table} ${body};
      CREATE TEMP TRIGGER ${table}_update_cache AFTER UPDATE OF ${columns.join(', ')} ON ${table} ${body};
      CREATE TEMP TRIGGER ${table}_delete_cache AFTER DELETE ON ${table} ${body};`);
  }
}

/** Changes whenever another connection commits to the database. */
function dataVersion(db: Db): number {
  return db.prepare('PRAGMA data_version').pluck().get() as number;
}
