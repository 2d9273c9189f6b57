/** Where a promotion's production scans go, as the brand pauses and resumes routing to the agency. */
import type { Context } from '../../context.js';
import { recordApprovalEvent } from '../../store/approvals.js';
import { voidJourneys } from '../../store/journeys.js';
import { getPromotion, setRoutingPaused } from '../../store/promotions.js';
import type { Route } from '../journey/routing.js';
import { promotionRoute } from '../journey/scan.js';
import { promotionOf } from './promotion.js';

/** Pausing sends later scans to the hosted page and voids the journeys under way; entries and prizes stay. @see spec §1 rules */
export function setRouting(ctx: Context, paused: boolean, promotionId?: number): Route {
  const current = promotionOf(ctx, promotionId);
  if (current.routing_paused !== paused) {
    const now = ctx.clock.now();
    ctx.db.transaction(() => {
      setRoutingPaused(ctx.db, current.id, paused);
      if (paused) voidJourneys(ctx.db, current.id, now);
      recordApprovalEvent(ctx.db, current.id, { action: paused ? 'paused' : 'resumed', reason: null, at: now });
    })();
  }
  return promotionRoute(ctx, getPromotion(ctx.db, current.id));
}
