/**
 * The interaction log's rows wait in memory and are written together: with the turn's transaction
 * (fast-path/turn-transaction.ts, which calls `flushInteractions` as the connection's `beforeCommit`:
 * connection.ts), else at the end of the event-loop turn, in one transaction. A commit of its own
 * per call cost as much as the rest of a GET /campaign. Every read of the log writes the waiting
 * rows first (interaction-reads.ts), so no reader misses one.
 */
import { storageFailure } from '../errors.js';
import type { Db } from '../fast-path/connection.js';
import { type Interaction, type Row, interactionRow, writeInteractions } from './interactions.js';

declare module '../fast-path/connection.js' {
  interface ConnectionState {
    /** Interaction rows recorded and not yet written. */
    unwritten?: Row[] | undefined;
  }
}

/** Keeps the call's row until the end of the turn. */
export function recordInteraction(db: Db, interaction: Omit<Interaction, 'id'>): void {
  let rows = db.state.unwritten;
  if (!rows) {
    db.state.unwritten = rows = [];
    setImmediate(flushInteractions, db);
  }
  rows.push(interactionRow(interaction));
}

/**
 * Writes the rows recorded since the last flush (a no-op when there are none or the database is
 * closed). Rows the disk has no room for are dropped: the log of calls never fails the calls, nor
 * (from the end of a turn, where nothing would catch it) the process.
 */
export function flushInteractions(db: Db): void {
  const rows = db.state.unwritten;
  if (!rows) return;
  db.state.unwritten = undefined;
  if (!db.open) return;
  const inTurn = db.inTransaction;
  try {
    writeInteractions(db, rows);
  } catch (error) {
    // SQLite may roll back the turn's whole transaction on a full disk: its requests must hear of it.
    if (!storageFailure(error) || (inTurn && !db.inTransaction)) throw error;
  }
}

/** Drops rows not yet written: a reset replaces the world, its log included. */
export function discardInteractions(db: Db): void {
  db.state.unwritten = undefined;
}
