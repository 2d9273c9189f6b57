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
