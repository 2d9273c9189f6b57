/** Entries: one per pack and promotion in production, whoever enters it; sandbox entries are synthetic. @see spec §2.5, §3 */
import type { DeliveryState, EntryState } from '../domain/draw.js';
import type { Db } from './db.js';

export interface Entry {
  id: number;
  promotion_id: number;
  session_id: number;
  sandbox: number;
  collector_id: number | null;
  unit_id: number | null;
  country: string | null;
  state: EntryState;
  prize_id: number | null;
  prize_name: string | null;
  codes: string;
  redemption_url: string | null;
  delivery_state: DeliveryState;
  delivery_due_at: number | null;
  delivery_outcome: 'delivered' | 'failed' | null;
  terms_version: string | null;
  created_at: number;
}

export type NewEntry = Omit<Entry, 'id'>;

const NEW_ENTRY_COLUMNS = [
  'promotion_id', 'session_id', 'sandbox', 'collector_id', 'unit_id', 'country', 'state', 'prize_id', 'prize_name', 'codes',
  'redemption_url', 'delivery_state', 'delivery_due_at', 'delivery_outcome', 'terms_version', 'created_at',
] as const satisfies ReadonlyArray<keyof NewEntry>;
const INSERT_ENTRY = `INSERT INTO entries (${NEW_ENTRY_COLUMNS.join(', ')}) VALUES (${NEW_ENTRY_COLUMNS.map(() => '?').join(', ')})`;

export function insertEntry(db: Db, entry: NewEntry): Entry {
  const { lastInsertRowid } = db.prepare(INSERT_ENTRY).run(NEW_ENTRY_COLUMNS.map((column) => entry[column]));
  return { id: Number(lastInsertRowid), ...entry };
}

export function findProductionEntryForPack(db: Db, promotionId: number, unitId: number): Entry | undefined {
  return db.prepare('SELECT * FROM entries WHERE promotion_id = ? AND unit_id = ? AND sandbox = 0').get(promotionId, unitId) as Entry | undefined;
}

export function findEntryForSession(db: Db, sessionId: number): Entry | undefined {
  return db.prepare('SELECT * FROM entries WHERE session_id = ? ORDER BY id DESC LIMIT 1').get(sessionId) as Entry | undefined;
}

/** Moves a processing delivery whose time has come to its outcome. @see spec §3 */
export function settleDelivery(db: Db, entry: Entry, now: number): Entry {
  if (entry.delivery_state !== 'processing' || entry.delivery_due_at === null || entry.delivery_due_at > now) return entry;
  return db
    .prepare(`UPDATE entries SET delivery_state = delivery_outcome,
        state = CASE delivery_outcome WHEN 'delivered' THEN 'won' ELSE 'failed' END
      WHERE id = ? AND delivery_state = 'processing' RETURNING *`)
    .get(entry.id) as Entry;
}
