/**
 * Group commit: the requests that join during one event-loop turn share one transaction, committed
 * at the end of the turn (with the writes that wait for it: `beforeCommit`), and each is told once it is
 * committed, so that its answer can wait for it. A commit (the WAL append and its locks) costs as
 * much as the rest of an entry's writes; shared by the requests that arrive together, each pays a
 * fraction, while an answer still never tells of a write a crash could undo.
 *
 * Inside the shared transaction each request's `db.transaction(...)` is a savepoint, so a refused
 * request still rolls back alone. It is opened IMMEDIATE, taking the write lock at once: a read
 * transaction upgraded to a write one would fail outright when another process (the concurrency
 * tests run two on one data folder) committed in between.
 *
 * Two guards keep the shared transaction from holding what is not a request's (decisions/013):
 * `whenCommitted` holds an announcement (a domain event) until the COMMIT, and drops it on a
 * rollback; `ownTransaction` gives a write from a timer or an I/O callback (a webhook attempt, a
 * batch lot) a transaction of its own, committing the turn's first instead of silently joining it.
 */
import type { Db } from './connection.js';

/** Called once the turn's transaction is committed, or with the error that rolled it back. */
export type Settled = (error?: unknown) => void;

export interface Turn {
  waiting: Settled[];
  /** Announcements held until the commit. */
  committed: Array<() => void>;
}

declare module './connection.js' {
  interface ConnectionState {
    /** The event-loop turn's shared transaction, while it is open. */
    turn?: Turn | undefined;
    /** Writes that wait for the turn's commit and go in with it (the interaction log's rows: store/interaction-rows.ts). */
    beforeCommit?: ((db: Db) => void) | undefined;
  }
}

/** Joins this turn's transaction, opening it if need be. */
export function joinTurnTransaction(db: Db, settled: Settled): void {
  let turn = db.state.turn;
  if (!turn) {
    db.prepare('BEGIN IMMEDIATE').run();
    db.state.turn = turn = { waiting: [], committed: [] };
    setImmediate(commitTurnTransaction, db);
  }
  turn.waiting.push(settled);
}

/** Runs `announce` once what was written is committed: now outside a turn, after its COMMIT inside one, never after a rollback. */
export function whenCommitted(db: Pick<Db, 'state'>, announce: () => void): void {
  const turn = db.state.turn;
  if (turn) turn.committed.push(announce);
  else announce();
}

/** A write that belongs to no request, in a transaction of its own (the turn's is committed first). */
export function ownTransaction<T>(db: Db, write: () => T): T {
  commitTurnTransaction(db);
  return db.transaction(write).immediate();
}

/**
 * Commits the turn's transaction now, if one is open: at the end of the turn, and before anything
 * that must not run inside it (a request of another kind, closing the database).
 */
export function commitTurnTransaction(db: Db): void {
  const turn = db.state.turn;
  if (!turn) return;
  db.state.turn = undefined;
  let failure: unknown;
  try {
    db.state.beforeCommit?.(db);
    db.prepare('COMMIT').run();
  } catch (error) {
    failure = error;
    if (db.inTransaction) db.prepare('ROLLBACK').run();
  }
  for (const settled of turn.waiting) settled(failure);
  if (failure === undefined) for (const announce of turn.committed) announce();
}
