/** The collector's prize wallet: won production entries, hosted or made through an agency. */
import type { Entry } from './entries.js';
import type { Db } from './db.js';

export function wonEntriesOf(db: Db, collectorId: number): Array<Entry & { promotion_name: string }> {
  return db
    .prepare(`SELECT e.*, json_extract(p.content, '$.name') AS promotion_name FROM entries e JOIN promotions p ON p.id = e.promotion_id
      WHERE e.collector_id = ? AND e.sandbox = 0 AND e.prize_id IS NOT NULL ORDER BY e.id DESC`)
    .all(collectorId) as Array<Entry & { promotion_name: string }>;
}
