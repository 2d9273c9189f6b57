/**
 * `?promotion=ID|slug` on the console's and the control plane's JSON calls: the promotion named,
 * else the default one (the fixture's `promotion`; use-cases/console/promotion.ts). An unknown one
 * is 404, never another promotion.
 */
import type { Context } from '../context.js';
import { PlumbingError } from '../errors.js';
import type { Promotion } from '../store/promotions.js';
import { namedPromotion } from '../use-cases/console/promotion.js';
import { isRefused } from '../wire-contract.js';

/** The promotion `?promotion=` names in `query`, else the default one. */
export function promotionIn(ctx: Context, query: unknown): Promotion {
  const ref = (query as Record<string, unknown> | undefined)?.promotion;
  const named = namedPromotion(ctx, ref);
  if (isRefused(named)) throw new PlumbingError('not_found', { message: `No promotion ${JSON.stringify(ref)}: name one by its id or slug, as \`emulator env --json\` and GET /_emulator/promotions list them.` });
  return named;
}

/** Its id, as the control plane's rows take it. */
export function promotionParam(ctx: Context, query: unknown): number {
  return promotionIn(ctx, query).id;
}
