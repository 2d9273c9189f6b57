/**
 * `?promotion=ID|slug` on console and control-plane calls: the promotion named, else the default
 * one (the fixture's `promotion`). An unknown one is 404, never another promotion.
 */
import type { Context } from '../context.js';
import { PlumbingError } from '../errors.js';
import { defaultPromotionId, findPromotion } from '../store/promotions.js';

export function promotionParam(ctx: Context, query: unknown): number {
  const ref = (query as Record<string, unknown> | undefined)?.promotion;
  if (ref === undefined) return defaultPromotionId(ctx.db);
  const found = typeof ref === 'string' && ref.length <= 64 ? findPromotion(ctx.db, ref) : undefined;
  if (!found) throw new PlumbingError('not_found', { message: `No promotion ${JSON.stringify(ref)}: name one by its id or slug, as \`emulator env --json\` and GET /_emulator/promotions list them.` });
  return found.id;
}
