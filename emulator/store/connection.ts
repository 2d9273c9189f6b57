/**
 * Every connection to the emulator's database is opened here (the connection's type and its state
 * are the fast path's: fast-path/connection.ts).
 */
import Database from 'better-sqlite3';
import { type StoredDelivery, deliveryAsOf } from '../domain/delivery.js';
import type { Db } from '../fast-path/connection.js';
import { flushInteractions } from './interaction-rows.js';

export type { Db } from '../fast-path/connection.js';

/**
 * A connection with its state and its SQL function `delivery_state_as_of(delivery_state,
 * delivery_due_at, delivery_outcome, now)`: where an entry's delivery stands at `now`, by the one
 * rule (domain/delivery.ts), for a query that filters on it. The turn's commit writes the
 * interaction log's waiting rows with it. `openDb` (db.ts) also brings the schema up to date.
 */
export function connect(path: string, options?: Database.Options): Db {
  const db = new Database(path, options);
  db.function('delivery_state_as_of', { deterministic: true }, (state, due, outcome, now) =>
    deliveryAsOf({ state: 'won', delivery_state: state, delivery_due_at: due, delivery_outcome: outcome } as StoredDelivery, now as number).delivery_state);
  return Object.assign(db, { state: { beforeCommit: flushInteractions } });
}
