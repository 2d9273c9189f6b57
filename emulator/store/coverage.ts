/** The brand's checklist records API coverage: the six sandbox calls per key. @see spec §1 lifecycle 3 and 6 */
import type { Db } from './db.js';

export function recordSandboxSession(db: Db, keyId: number, scenario: string, now: number): void {
  db.prepare(`INSERT INTO sandbox_coverage (key_id, scenario, session_created_at) VALUES (?, ?, ?)
    ON CONFLICT (key_id, scenario) DO UPDATE SET session_created_at = coalesce(session_created_at, excluded.session_created_at)`).run(keyId, scenario, now);
}

export function recordSandboxEntry(db: Db, keyId: number, scenario: string, now: number): void {
  db.prepare('UPDATE sandbox_coverage SET entry_submitted_at = coalesce(entry_submitted_at, ?) WHERE key_id = ? AND scenario = ?').run(now, keyId, scenario);
}

export interface CoverageRow {
  scenario: string;
  session_created_at: number | null;
  entry_submitted_at: number | null;
}

export function listCoverage(db: Db, keyId: number): CoverageRow[] {
  return db.prepare('SELECT scenario, session_created_at, entry_submitted_at FROM sandbox_coverage WHERE key_id = ? ORDER BY scenario').all(keyId) as CoverageRow[];
}
