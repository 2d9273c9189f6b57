/**
 * Entries: one per pack and promotion in production, whoever enters it; sandbox entries are
 * synthetic. `storeEntry` is the table's one writer. @see spec §2.5, §3
 */
import { type Delivery, type DeliveryState, type EntryState, deliveryAsOf, initialDelivery } from '../domain/delivery.js';
import type { Db } from './db.js';
import type { Campaign, Prize } from './promotions.js';

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

/** Who made an entry, on which pack, in which session and under which terms. */
export interface EntryMaker {
  campaign: Campaign;
  sessionId: number;
  sandbox: boolean;
  collectorId: number | null;
  /** The pack's id: its row in `units`, as the tables and the reporting API call a pack. */
  unitId: number | null;
  country: string | null;
  termsVersion: string | null;
}

/** What an entry won: the prize, how it is delivered, and its code (null: none). */
export interface Won {
  prize: Pick<Prize, 'id' | 'name' | 'redemption_url'>;
  delivery: Delivery;
  code: string | null;
}

/**
 * Stores an entry made at `at`, won (its delivery in its first state, domain/delivery.ts) or lost
 * when no prize is given. An entry stored later than it was made (the seeded history) names the
 * time `asOf` it is stored at, and is stored as it stands then. One object literal, not a spread
 * of shared fields: a spread's later fields each cost a runtime call (decisions/013).
 */
export function storeEntry(db: Db, maker: EntryMaker, at: number, won?: Won, asOf?: number): Entry {
  const start = won ? initialDelivery(won.delivery) : undefined;
  const entry: NewEntry = {
    promotion_id: maker.campaign.promotion.id, session_id: maker.sessionId, sandbox: maker.sandbox ? 1 : 0,
    collector_id: maker.collectorId, unit_id: maker.unitId, country: maker.country, terms_version: maker.termsVersion, created_at: at,
    state: start ? start.state : 'lost',
    prize_id: won ? won.prize.id : null,
    prize_name: won ? won.prize.name : null,
    codes: won && won.code !== null ? JSON.stringify([won.code]) : '[]',
    redemption_url: won ? won.prize.redemption_url : null,
    delivery_state: start ? start.deliveryState : 'none',
    delivery_outcome: start?.settlesAs ?? null,
    delivery_due_at: start?.settlesAs ? at + maker.campaign.promotion.content.delivery_delay_seconds * 1000 : null,
  };
  return insertEntry(db, asOf === undefined ? entry : deliveryAsOf(entry, asOf));
}

/** Answers `entry` as an Entry: the object handed in, given its id rather than copied (hot path: every entry). */
function insertEntry(db: Db, entry: NewEntry): Entry {
  const { lastInsertRowid } = db.prepare(INSERT_ENTRY).run(NEW_ENTRY_COLUMNS.map((column) => entry[column]));
  const stored = entry as Entry;
  stored.id = Number(lastInsertRowid);
  return stored;
}

/** The pack's production entry on the promotion, as it stands at `now` (a read never writes: domain/delivery.ts). */
export function findProductionEntryForPack(db: Db, promotionId: number, unitId: number, now: number): Entry | undefined {
  const stored = db.prepare('SELECT * FROM entries WHERE promotion_id = ? AND unit_id = ? AND sandbox = 0').get(promotionId, unitId) as Entry | undefined;
  return stored && deliveryAsOf(stored, now);
}

/** The session's entry, as it stands at `now`. */
export function findEntryForSession(db: Db, sessionId: number, now: number): Entry | undefined {
  const stored = db.prepare('SELECT * FROM entries WHERE session_id = ? ORDER BY id DESC LIMIT 1').get(sessionId) as Entry | undefined;
  return stored && deliveryAsOf(stored, now);
}

/**
 * Makes a pack's pending delivery due now, settling as `outcome`: the control plane's shortcut.
 * Undefined when none is pending, that is processing and not yet due (domain/delivery.ts).
 */
export function settlePendingDeliveryNow(db: Db, packCode: string, outcome: 'delivered' | 'failed', now: number): { id: number } | undefined {
  return db
    .prepare(`UPDATE entries SET delivery_due_at = ?, delivery_outcome = ?
      WHERE sandbox = 0 AND delivery_state = 'processing' AND delivery_due_at > ? AND unit_id = (SELECT id FROM units WHERE code = ?) RETURNING id`)
    .get(now, outcome, now, packCode) as { id: number } | undefined;
}

/** The collector's prize wallet: won production entries, hosted or made through an agency. */
export function wonEntriesOf(db: Db, collectorId: number): Array<Entry & { promotion_name: string }> {
  return db
    .prepare(`SELECT e.*, json_extract(p.content, '$.name') AS promotion_name FROM entries e JOIN promotions p ON p.id = e.promotion_id
      WHERE e.collector_id = ? AND e.sandbox = 0 AND e.prize_id IS NOT NULL ORDER BY e.id DESC`)
    .all(collectorId) as Array<Entry & { promotion_name: string }>;
}

export type PackEntry = Pick<Entry, 'id' | 'promotion_id' | 'unit_id' | 'collector_id' | 'state' | 'prize_id' | 'prize_name'>;

/** Production entries of these promotions on these packs (at most one per promotion and pack). */
export function entriesOnPacks(db: Db, promotionIds: number[], unitIds: number[]): PackEntry[] {
  if (promotionIds.length === 0 || unitIds.length === 0) return [];
  return db
    .prepare(`SELECT id, promotion_id, unit_id, collector_id, state, prize_id, prize_name FROM entries
      WHERE sandbox = 0 AND promotion_id IN (SELECT value FROM json_each(?)) AND unit_id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(promotionIds), JSON.stringify(unitIds)) as PackEntry[];
}

export interface EnteredPack extends PackEntry {
  delivery_state: Entry['delivery_state'];
  country: string | null;
  created_at: number;
  brand_id: number;
  unit_code: string;
  sku_id: number;
  sku_name: string;
  sku_prefix: string;
}

/** A production entry with the pack it entered: what `activation.entered` announces. */
export function findProductionEntry(db: Db, entryId: number): EnteredPack | undefined {
  return db
    .prepare(`SELECT e.id, e.promotion_id, e.unit_id, e.collector_id, e.state, e.prize_id, e.prize_name, e.delivery_state, e.country, e.created_at,
        k.brand_id, u.code AS unit_code, u.sku_id, k.name AS sku_name, k.prefix AS sku_prefix
      FROM entries e JOIN units u ON u.id = e.unit_id JOIN skus k ON k.id = u.sku_id WHERE e.id = ? AND e.sandbox = 0`)
    .get(entryId) as EnteredPack | undefined;
}

/** How many production entries there are, and on how many packs. */
export function productionEntryCounts(db: Db): { entries: number; packs: number } {
  return db.prepare('SELECT COUNT(*) AS entries, COUNT(DISTINCT unit_id) AS packs FROM entries WHERE sandbox = 0').get() as { entries: number; packs: number };
}
