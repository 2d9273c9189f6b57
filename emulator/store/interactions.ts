/**
 * The interaction log: every experience API call, its body redacted (domain/redaction.ts), for the
 * dashboard and the harness.
 *
 * Rows wait in memory and are written together: with the next turn transaction of the experience
 * API (store/turn-transaction.ts), else at the end of the event-loop turn, in one transaction. A
 * commit of its own per call cost as much as the rest of a GET /campaign. Every read here writes
 * the waiting rows first, so a reader (the control plane, the dashboard) never misses one.
 */
import { redactSecrets } from '../domain/redaction.js';
import { storageFailure } from '../errors.js';
import type { Db } from './db.js';

export interface Interaction {
  id: number;
  at: number;
  key_id: number | null;
  session_id: number | null;
  method: string;
  path: string;
  status: number;
  /** The error code of an error answer (`invalid_key`, `rate_limited`, ...), else null. */
  error: string | null;
  body: unknown;
}

type Row = [at: number, keyId: number | null, sessionId: number | null, method: string, path: string, status: number, error: string | null, body: string | null];

const pending = new WeakMap<Db, Row[]>();

export function recordInteraction(db: Db, row: Omit<Interaction, 'id'>): void {
  let rows = pending.get(db);
  if (!rows) {
    pending.set(db, (rows = []));
    setImmediate(flushInteractions, db);
  }
  rows.push([row.at, row.key_id, row.session_id, row.method, row.path, row.status, row.error, bodyText(redactSecrets(row.body))]);
}

/** JSON.stringify recurses: a hostile body nested some thousands deep is recorded as a note instead. */
function bodyText(body: unknown): string | null {
  if (body === undefined) return null;
  try {
    return JSON.stringify(body);
  } catch {
    return JSON.stringify({ unrecorded: 'the body is nested too deeply to record' });
  }
}

/**
 * Writes the rows recorded since the last flush (a no-op when there are none or the database is
 * closed). Rows the disk has no room for are dropped: the log of calls never fails the calls, nor
 * (from the end of a turn, where nothing would catch it) the process.
 */
export function flushInteractions(db: Db): void {
  const rows = pending.get(db);
  if (!rows) return;
  pending.delete(db);
  if (!db.open) return;
  const insert = db.prepare('INSERT INTO interactions (at, key_id, session_id, method, path, status, error, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const inTurn = db.inTransaction;
  try {
    if (rows.length === 1) insert.run(rows[0]!);
    else db.transaction(() => rows.forEach((row) => insert.run(row)))();
  } catch (error) {
    // SQLite may roll back the turn's whole transaction on a full disk: its requests must hear of it.
    if (!storageFailure(error) || (inTurn && !db.inTransaction)) throw error;
  }
}

/** Drops rows not yet written: a reset replaces the world, its log included. */
export function discardInteractions(db: Db): void {
  pending.delete(db);
}

export function listInteractions(db: Db, { afterId = 0, limit = 100 }: { afterId?: number; limit?: number }): Interaction[] {
  flushInteractions(db);
  const rows = db.prepare('SELECT * FROM interactions WHERE id > ? ORDER BY id LIMIT ?').all(afterId, limit) as Array<Omit<Interaction, 'body'> & { body: string | null }>;
  // Redacted again as read: data folders of older versions hold bodies redacted by top-level names only.
  return rows.map((row) => ({ ...row, body: row.body === null ? null : redactSecrets(JSON.parse(row.body)) }));
}

/** The newest entries of the interaction log, oldest first, for the dashboard. */
export function latestInteractions(db: Db, limit: number): Interaction[] {
  flushInteractions(db);
  const { last } = db.prepare('SELECT coalesce(max(id), 0) AS last FROM interactions').get() as { last: number };
  return listInteractions(db, { afterId: Math.max(0, last - limit), limit });
}
