/** What every console use case and read starts from: the promotion a call acts on, and how its answers show a time. */
import type { Context } from '../../context.js';
import { type Promotion, defaultPromotionId, getPromotion } from '../../store/promotions.js';

/** The promotion a console call acts on: the one named, else the default one. */
export function promotionOf(ctx: Context, promotionId: number | undefined): Promotion {
  return getPromotion(ctx.db, promotionId ?? defaultPromotionId(ctx.db));
}

/** A stored time as the console's answers show it: ISO 8601, or null for none. */
export const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
