/** What every console use case and read starts from: the promotion a call acts on, and how its answers show a time. */
import type { Context } from '../../context.js';
import { type Promotion, defaultPromotionId, findPromotion, getPromotion } from '../../store/promotions.js';
import { type Refused, refused } from '../../wire-contract.js';

/** The promotion a console call acts on: the one named, else the default one. */
export function promotionOf(ctx: Context, promotionId: number | undefined): Promotion {
  return getPromotion(ctx.db, promotionId ?? defaultPromotionId(ctx.db));
}

/**
 * The promotion a request names by its id or slug (`?promotion=`), else the default one; a name no
 * promotion has (or that is no name: a list, over 64 characters) is refused, never read as another.
 */
export function namedPromotion(ctx: Context, name: unknown): Promotion | Refused<'unknown_promotion'> {
  if (name === undefined) return promotionOf(ctx, undefined);
  const found = typeof name === 'string' && name.length <= 64 ? findPromotion(ctx.db, name) : undefined;
  return found ?? refused('unknown_promotion');
}

/** A stored time as the console's answers show it: ISO 8601, or null for none. */
export const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
