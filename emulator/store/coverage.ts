/**
 * The brand's checklist records API coverage: the six sandbox calls per key, read for a whole
 * promotion (what any of its sandbox keys did: a rotated key keeps counting).
 * @see spec §1 lifecycle 3 and 6
 */
import type { Db } from './db.js';

export interface CoverageRow {
  scenario: string;
  session_created_at: number | null;
  entry_submitted_at: number | null;
}

const PROMOTION_SANDBOX_KEYS = "SELECT id FROM agency_keys WHERE promotion_id = ? AND environment = 'sandbox'";

/** The first call of each kind counts; a repeat finds its row and writes nothing. */
export function recordSandboxSession(db: Db, keyId: number, scenario: string, now: number): void {
  db.prepare('INSERT INTO sandbox_coverage (key_id, scenario, session_created_at) VALUES (?, ?, ?) ON CONFLICT (key_id, scenario) DO NOTHING').run(keyId, scenario, now);
}

export function recordSandboxEntry(db: Db, keyId: number, scenario: string, now: number): void {
  db.prepare('UPDATE sandbox_coverage SET entry_submitted_at = ? WHERE key_id = ? AND scenario = ? AND entry_submitted_at IS NULL').run(now, keyId, scenario);
}

export function promotionCoverage(db: Db, promotionId: number): CoverageRow[] {
  return db
    .prepare(`SELECT scenario, min(session_created_at) AS session_created_at, min(entry_submitted_at) AS entry_submitted_at
      FROM sandbox_coverage WHERE key_id IN (${PROMOTION_SANDBOX_KEYS}) GROUP BY scenario ORDER BY scenario`)
    .all(promotionId) as CoverageRow[];
}

/** Changing a callback URL invalidates the checklist. @see spec §1 rules */
export function clearPromotionCoverage(db: Db, promotionId: number): void {
  db.prepare(`DELETE FROM sandbox_coverage WHERE key_id IN (${PROMOTION_SANDBOX_KEYS})`).run(promotionId);
}

/** One sandbox key's coverage row as stored, to put the checklist back exactly as it was. */
export interface StoredCoverage {
  key_id: number;
  scenario: string;
  session_created_at: number | null;
  entry_submitted_at: number | null;
}

export function storedCoverage(db: Db, promotionId: number): StoredCoverage[] {
  return db.prepare(`SELECT key_id, scenario, session_created_at, entry_submitted_at FROM sandbox_coverage WHERE key_id IN (${PROMOTION_SANDBOX_KEYS}) ORDER BY key_id, scenario`).all(promotionId) as StoredCoverage[];
}

/** The promotion's checklist replaced by rows read earlier with storedCoverage, those of its keys that are still there (a reset makes new ones). */
export function replaceCoverage(db: Db, promotionId: number, rows: readonly StoredCoverage[]): void {
  clearPromotionCoverage(db, promotionId);
  const insert = db.prepare(`INSERT INTO sandbox_coverage (key_id, scenario, session_created_at, entry_submitted_at)
    SELECT ?, ?, ?, ? WHERE ? IN (${PROMOTION_SANDBOX_KEYS})`);
  for (const row of rows) insert.run(row.key_id, row.scenario, row.session_created_at, row.entry_submitted_at, row.key_id, promotionId);
}
