/** The newest entries of the interaction log, oldest first, for the dashboard. */
import type { Db } from './db.js';
import { type Interaction, flushInteractions, listInteractions } from './interactions.js';

export function latestInteractions(db: Db, limit: number): Interaction[] {
  flushInteractions(db);
  const { last } = db.prepare('SELECT coalesce(max(id), 0) AS last FROM interactions').get() as { last: number };
  return listInteractions(db, { afterId: Math.max(0, last - limit), limit });
}
