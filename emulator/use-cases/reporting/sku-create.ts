/**
 * POST /brands/{slug}/skus: a new SKU of a brand. Its prefix starts with the brand's prefix and a
 * hyphen, so a pack code names its brand; a prefix is one SKU's only. @see spec §4.4 (skus)
 */
import type { Context } from '../../context.js';
import type { Brand } from '../../store/promotions.js';
import { type Sku, createSku } from '../../store/skus.js';
import { type Refused, refused } from '../../wire-contract.js';

/** Why a SKU was not created. */
export type SkuRefusal = 'prefix_outside_brand' | 'prefix_taken';

export function createBrandSku(ctx: Context, brand: Brand, input: { name: string; prefix: string }): Sku | Refused<SkuRefusal> {
  if (!input.prefix.startsWith(`${brand.prefix}-`)) return refused('prefix_outside_brand');
  return createSku(ctx.db, { brandId: brand.id, name: input.name, prefix: input.prefix, now: ctx.clock.now() }) ?? refused('prefix_taken');
}
