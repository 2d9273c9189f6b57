/**
 * The database connection, and what the emulator keeps on it beside SQLite's own state. That state
 * belongs to the connection, so it lives on it: store functions take a `Db` and find it there, and
 * no module keeps state of its own (decisions/013).
 */
import Database from 'better-sqlite3';
import { type StoredDelivery, deliveryAsOf } from '../domain/delivery.js';
/**
 * What modules keep on the connection. Each module that keeps something declares its own field here
 * from its own file (`declare module`), so the connection knows none of them: the turn's transaction
 * (fast-path/turn-transaction.ts), the log's waiting rows (fast-path/interaction-rows.ts), the cache
 * (fast-path/cache.ts), the rows written since the last trim (store/interactions.ts).
 */
export interface ConnectionState {}

export type Db = Database.Database & { readonly state: ConnectionState };

/**
 * Every connection to the emulator's database is made here, with its state and its SQL function
 * `delivery_state_as_of(delivery_state, delivery_due_at, delivery_outcome, now)`: where an entry's
 * delivery stands at `now`, by the one rule (domain/delivery.ts), for a query that filters on it.
 * `openDb` (db.ts) also brings the schema up to date.
 */
export function connect(path: string, options?: Database.Options): Db {
  const db = new Database(path, options);
  db.function('delivery_state_as_of', { deterministic: true }, (state, due, outcome, now) =>
    deliveryAsOf({ state: 'won', delivery_state: state, delivery_due_at: due, delivery_outcome: outcome } as StoredDelivery, now as number).delivery_state);
  return Object.assign(db, { state: {} });
}
