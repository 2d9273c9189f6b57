/** The brand's approval of the agency experience. */
import type { Context } from '../../context.js';
import type { Details } from '../../errors.js';
import { recordApprovalEvent } from '../../store/approvals.js';
import { promotionCoverage } from '../../store/coverage.js';
import { setApprovedAt } from '../../store/promotions.js';
import { isLive } from '../journey/routing.js';
import { type Refused, refused } from '../../wire-contract.js';
import { checklistOf } from './checklist.js';
import { iso, promotionOf } from './promotion.js';

/**
 * Explicit approval, refused while the checklist is incomplete, the promotion is not live, or no
 * production callback is set (setting one would clear the approval again); a refusal names what is
 * missing (field → messages). @see spec §1 lifecycle 5 and 6
 */
export function approve(ctx: Context, promotionId?: number): { approved_at: string } | Refused<Details> {
  const current = promotionOf(ctx, promotionId);
  const now = ctx.clock.now();
  const missing: Record<string, string[]> = {};
  const { missing: unchecked } = checklistOf(promotionCoverage(ctx.db, current.id));
  if (unchecked.length > 0) missing.checklist = unchecked;
  if (!isLive(current, now)) missing.promotion = ['must be live (status live and within its dates)'];
  if (!current.production_callback) missing.production_callback = ['must be set first: setting it later clears the approval'];
  if (Object.keys(missing).length > 0) return refused(missing);
  if (current.approved_at === null) {
    ctx.db.transaction(() => {
      setApprovedAt(ctx.db, current.id, now);
      recordApprovalEvent(ctx.db, current.id, { action: 'approved', reason: null, at: now });
    })();
  }
  return { approved_at: iso(current.approved_at ?? now)! };
}
