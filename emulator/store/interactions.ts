/** The interaction log: every experience API call, redacted, for the dashboard and the harness. */
import type { Db } from './db.js';

export interface Interaction {
  id: number;
  at: number;
  key_id: number | null;
  session_id: number | null;
  method: string;
  path: string;
  status: number;
  body: unknown;
}

export function recordInteraction(db: Db, row: Omit<Interaction, 'id'>): void {
  db.prepare('INSERT INTO interactions (at, key_id, session_id, method, path, status, body) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    row.at, row.key_id, row.session_id, row.method, row.path, row.status, row.body === undefined ? null : JSON.stringify(row.body),
  );
}

export function listInteractions(db: Db, { afterId = 0, limit = 100 }: { afterId?: number; limit?: number }): Interaction[] {
  const rows = db.prepare('SELECT * FROM interactions WHERE id > ? ORDER BY id LIMIT ?').all(afterId, limit) as Array<Omit<Interaction, 'body'> & { body: string | null }>;
  return rows.map((row) => ({ ...row, body: row.body === null ? null : (JSON.parse(row.body) as unknown) }));
}
