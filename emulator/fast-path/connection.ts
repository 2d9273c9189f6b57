/**
 * The database connection, and what the emulator keeps on it beside SQLite's own state. That state
 * belongs to the connection, so it lives on it: a function that takes a `Db` finds it there, and no
 * module keeps state of its own (decisions/013). The store opens connections (store/connection.ts)
 * and the fast path keeps its state on them; the fast path knows nothing of the store.
 */
import type Database from 'better-sqlite3';

/**
 * What modules keep on the connection. Each module that keeps something declares its own field here
 * from its own file (`declare module`), so the connection knows none of them: the turn's transaction
 * (turn-transaction.ts), the cache (cache.ts), the interaction log's waiting rows and trim counts
 * (store/interaction-rows.ts, store/interactions.ts).
 */
export interface ConnectionState {}

export type Db = Database.Database & { readonly state: ConnectionState };
