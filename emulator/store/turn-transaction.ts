/**
 * Group commit: the requests that join during one event-loop turn share one transaction, committed
 * at the end of the turn (with the interaction log's waiting rows), and each is told once it is
 * committed, so that its answer can wait for it. A commit (the WAL append and its locks) costs as
 * much as the rest of an entry's writes; shared by the requests that arrive together, each pays a
 * fraction, while an answer still never tells of a write a crash could undo.
 *
 * Inside the shared transaction each request's `db.transaction(...)` is a savepoint, so a refused
 * request still rolls back alone. It is opened IMMEDIATE, taking the write lock at once: a read
 * transaction upgraded to a write one would fail outright when another process (the concurrency
 * tests run two on one data folder) committed in between.
 */
import type { Db } from './db.js';
import { flushInteractions } from './interactions.js';

/** Called once the turn's transaction is committed, or with the error that rolled it back. */
export type Settled = (error?: unknown) => void;

const open = new WeakMap<Db, Settled[]>();

/** Joins this turn's transaction, opening it if need be. */
export function joinTurnTransaction(db: Db, settled: Settled): void {
  let waiting = open.get(db);
  if (!waiting) {
    db.prepare('BEGIN IMMEDIATE').run();
    open.set(db, (waiting = []));
    setImmediate(commitTurnTransaction, db);
  }
  waiting.push(settled);
}

/**
 * Commits the turn's transaction now, if one is open: at the end of the turn, and before anything
 * that must not run inside it (a request of another kind, closing the database).
 */
export function commitTurnTransaction(db: Db): void {
  const waiting = open.get(db);
  if (!waiting) return;
  open.delete(db);
  let failure: unknown;
  try {
    flushInteractions(db);
    db.prepare('COMMIT').run();
  } catch (error) {
    failure = error;
    if (db.inTransaction) db.prepare('ROLLBACK').run();
  }
  for (const settled of waiting) settled(failure);
}
