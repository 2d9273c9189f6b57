/**
 * The interaction log: every experience API call, its body redacted (domain/redaction.ts), for the
 * dashboard and the harness.
 *
 * Rows wait in memory and are written together: with the next turn transaction of the experience
 * API (fast-path/turn-transaction.ts), else at the end of the event-loop turn, in one transaction. A
 * commit of its own per call cost as much as the rest of a GET /campaign. Every read here writes
 * the waiting rows first, so a reader (the control plane, the dashboard) never misses one.
 */
import { redactSecrets } from '../domain/redaction.js';
import { storageFailure } from '../errors.js';
import type { Db } from './connection.js';

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

/** A body is kept up to this many characters of its JSON, with its size noted: rejected calls carried up to 100 KB each. */
export const BODY_KEPT = 4096;
/** Rows kept per key (and for calls without a valid key); the oldest go first. */
export const ROWS_PER_KEY = 5000;
/** A read of the log answers at most this many characters of bodies, whatever its limit: no read holds the event loop long. */
export const PAGE_BODY_CHARS = 512 * 1024;
/** Trimmed every this many rows written, not at every write. */
const TRIM_EVERY = 500;

export type Row = [at: number, keyId: number | null, sessionId: number | null, method: string, path: string, status: number, error: string | null, body: string | null];

export function recordInteraction(db: Db, row: Omit<Interaction, 'id'>): void {
  let rows = db.state.unwritten;
  if (!rows) {
    db.state.unwritten = rows = [];
    setImmediate(flushInteractions, db);
  }
  rows.push([row.at, row.key_id, row.session_id, row.method, row.path, row.status, row.error, bodyText(redactSecrets(row.body))]);
}

/** JSON.stringify recurses: a hostile body nested some thousands deep is recorded as a note instead. A long one is cut, its size noted. */
function bodyText(body: unknown): string | null {
  if (body === undefined) return null;
  let text: string;
  try {
    text = JSON.stringify(body);
  } catch {
    return JSON.stringify({ unrecorded: 'the body is nested too deeply to record' });
  }
  if (text.length <= BODY_KEPT) return text;
  return JSON.stringify({ truncated: `the body's JSON had ${Buffer.byteLength(text)} bytes; its first ${BODY_KEPT} characters are kept`, start: text.slice(0, BODY_KEPT) });
}

/** Rows written since the last trim, and their keys. */
export interface Written {
  rows: number;
  keys: Set<number | null>;
}

/** Drops each written key's oldest rows beyond ROWS_PER_KEY, once every TRIM_EVERY rows. */
function trim(db: Db, rows: Row[]): void {
  const since = (db.state.written ??= { rows: 0, keys: new Set() });
  since.rows += rows.length;
  for (const row of rows) since.keys.add(row[1]);
  if (since.rows < TRIM_EVERY) return;
  const drop = db.prepare(`DELETE FROM interactions WHERE key_id IS ? AND id <= (SELECT id FROM interactions WHERE key_id IS ? ORDER BY id DESC LIMIT 1 OFFSET ${ROWS_PER_KEY})`);
  for (const key of since.keys) drop.run(key, key);
  db.state.written = undefined;
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
  const insert = db.prepare('INSERT INTO interactions (at, key_id, session_id, method, path, status, error, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const inTurn = db.inTransaction;
  try {
    db.transaction(() => {
      for (const row of rows) insert.run(row);
      trim(db, rows);
    })();
  } catch (error) {
    // SQLite may roll back the turn's whole transaction on a full disk: its requests must hear of it.
    if (!storageFailure(error) || (inTurn && !db.inTransaction)) throw error;
  }
}

/** Drops rows not yet written: a reset replaces the world, its log included. */
export function discardInteractions(db: Db): void {
  db.state.unwritten = undefined;
}

/** Up to `limit` rows after `afterId`, fewer once PAGE_BODY_CHARS of bodies are read: the next page starts after the last row. */
export function listInteractions(db: Db, { afterId = 0, limit = 100 }: { afterId?: number; limit?: number }): Interaction[] {
  flushInteractions(db);
  const rows: Interaction[] = [];
  let chars = 0;
  for (const row of db.prepare('SELECT * FROM interactions WHERE id > ? ORDER BY id LIMIT ?').iterate(afterId, limit) as IterableIterator<Omit<Interaction, 'body'> & { body: string | null }>) {
    // Redacted again as read: data folders of older versions hold bodies redacted by top-level names only.
    rows.push({ ...row, body: row.body === null ? null : redactSecrets(JSON.parse(row.body)) });
    chars += row.body?.length ?? 0;
    if (chars >= PAGE_BODY_CHARS) break;
  }
  return rows;
}

/** The newest entries of the interaction log, oldest first, for the dashboard. */
export function latestInteractions(db: Db, limit: number): Interaction[] {
  flushInteractions(db);
  const { last } = db.prepare('SELECT coalesce(max(id), 0) AS last FROM interactions').get() as { last: number };
  return listInteractions(db, { afterId: Math.max(0, last - limit), limit });
}
