/**
 * The interaction log: every experience API call, its body redacted (domain/redaction.ts), for the
 * dashboard and the harness. Its one writer; the reads are in interaction-reads.ts.
 */
import { redactSecrets } from '../domain/redaction.js';
import type { Db } from '../fast-path/connection.js';

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

/** The row the log stores for a call: its body redacted and cut to size. */
export function interactionRow(row: Omit<Interaction, 'id'>): Row {
  return [row.at, row.key_id, row.session_id, row.method, row.path, row.status, row.error, bodyText(redactSecrets(row.body))];
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

declare module '../fast-path/connection.js' {
  interface ConnectionState {
    /** Interaction rows written since the log was last trimmed. */
    written?: Written | undefined;
  }
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

/** Writes rows of the log in one transaction (a savepoint within the turn's), trimming it once in a while. */
export function writeInteractions(db: Db, rows: Row[]): void {
  const insert = db.prepare('INSERT INTO interactions (at, key_id, session_id, method, path, status, error, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const row of rows) insert.run(row);
    trim(db, rows);
  })();
}
