/** The brand's approval of the agency experience, and its history. @see spec §1 lifecycle 5, rules */
import type { Db } from './db.js';

export type ApprovalAction = 'approved' | 'cleared' | 'paused' | 'resumed';

export interface ApprovalEvent {
  action: ApprovalAction;
  reason: string | null;
  at: number;
}

export function recordApprovalEvent(db: Db, promotionId: number, event: ApprovalEvent): void {
  db.prepare('INSERT INTO approval_history (promotion_id, action, reason, at) VALUES (?, ?, ?, ?)').run(promotionId, event.action, event.reason, event.at);
}

export function approvalHistory(db: Db, promotionId: number, limit = 20): ApprovalEvent[] {
  return db.prepare('SELECT action, reason, at FROM approval_history WHERE promotion_id = ? ORDER BY id DESC LIMIT ?').all(promotionId, limit) as ApprovalEvent[];
}

/** The id of the promotion's newest history line (0: none), so lines written after it can be told apart. */
export function lastApprovalEventId(db: Db, promotionId: number): number {
  return (db.prepare('SELECT coalesce(max(id), 0) AS id FROM approval_history WHERE promotion_id = ?').get(promotionId) as { id: number }).id;
}

/** Removes the promotion's history lines written after `afterId`. */
export function dropApprovalEventsAfter(db: Db, promotionId: number, afterId: number): void {
  db.prepare('DELETE FROM approval_history WHERE promotion_id = ? AND id > ?').run(promotionId, afterId);
}
