/** Reads of the interaction log (interactions.ts), for the control plane and the dashboard: each writes the rows still waiting first. */
import { redactSecrets } from '../domain/redaction.js';
import type { Db } from './connection.js';
import { flushInteractions } from './interaction-rows.js';
import { type Interaction, PAGE_BODY_CHARS } from './interactions.js';

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
