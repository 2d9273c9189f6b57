/**
 * Sandbox coverage of a whole promotion: what any of its sandbox keys did (a rotated key keeps
 * counting). @see spec §1 lifecycle 3 and 6
 */
import type { CoverageRow } from './coverage.js';
import type { Db } from './db.js';

const PROMOTION_SANDBOX_KEYS = "SELECT id FROM agency_keys WHERE promotion_id = ? AND environment = 'sandbox'";

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
