/**
 * Edits of the world the harness makes while journeys run: a country's terms changed mid-journey
 * (put back by `restoreTerms` when the faults are cleared), a pending delivery settled now, and
 * the packs not entered yet with the outcome of their seeded draw (and every outcome that draw can
 * give). The terms and the packs are those of the promotion their caller names; a delivery is
 * settled by its pack's code, whichever promotion the pack belongs to.
 */
import type { Context } from '../../context.js';
import type { ExpectedOutcome } from '../../domain/draw.js';
import type { Terms } from '../../fixture.js';
import { settlePendingDeliveryNow } from '../../store/entries.js';
import { type KnownPack, reachableOutcomes, unenteredPacks } from '../../store/known-packs.js';
import { defaultPromotionId, getPromotion, loadCampaign, updatePromotionContent } from '../../store/promotions.js';
import { type Refused, refused } from '../../wire-contract.js';

/** Terms as they were before the first edit, per promotion and country: `<promotion id>:<country or "">`. */
export type OriginalTerms = Map<string, Terms>;

/** The terms of a country of `terms.by_country`, or of the default terms (null), in part; a `minimum_age` of null removes it. */
export interface TermsEdit {
  country: string | null;
  terms: Partial<Omit<Terms, 'minimum_age'>> & { minimum_age?: number | null };
}

/** The terms of one country (or the default ones) edited, their first version kept in `originals`; refused for a country without terms. */
export function editTerms(ctx: Context, originals: OriginalTerms, promotionId: number, { country, terms }: TermsEdit): { country: string | null; terms: Terms } | Refused<'not_found'> {
  const current = termsOf(ctx, promotionId, country);
  if (!current) return refused('not_found');
  const key = `${promotionId}:${country ?? ''}`;
  if (!originals.has(key)) originals.set(key, current);
  const { minimum_age: age, ...rest } = terms;
  const next: Terms = { ...current, ...rest };
  if (age === null) delete next.minimum_age;
  else if (age !== undefined) next.minimum_age = age;
  writeTerms(ctx, promotionId, country, next);
  return { country, terms: next };
}

/** Puts back every edited terms; returns which ("default" or the country, after the slug for a promotion other than the default). */
export function restoreTerms(ctx: Context, originals: OriginalTerms): string[] {
  const restored: string[] = [];
  for (const [key, terms] of originals) {
    const [id, country] = key.split(':') as [string, string];
    const promotionId = Number(id);
    const label = country || 'default';
    restored.push(promotionId === defaultPromotionId(ctx.db) ? label : `${getPromotion(ctx.db, promotionId).slug} ${label}`);
    writeTerms(ctx, promotionId, country || null, terms);
  }
  originals.clear();
  return restored;
}

/** The pending delivery of a pack's entry settled at once; refused when the pack has none pending. */
export function settleDelivery(ctx: Context, { pack, outcome }: { pack: string; outcome: 'delivered' | 'failed' }): { entryId: number; outcome: 'delivered' | 'failed' } | Refused<'not_found'> {
  const changed = settlePendingDeliveryNow(ctx.db, pack, outcome, ctx.clock.now());
  return changed ? { entryId: changed.id, outcome } : refused('not_found');
}

/** Up to `perOutcome` packs of the promotion not entered yet for each outcome, and every outcome its draw can give. */
export function packsToEnter(ctx: Context, promotionId: number, perOutcome: number): { packs: KnownPack[]; outcomes: ExpectedOutcome[] } {
  const campaign = loadCampaign(ctx.db, promotionId);
  return { packs: unenteredPacks(ctx.db, ctx.seed, campaign, perOutcome), outcomes: reachableOutcomes(campaign.prizes) };
}

function termsOf(ctx: Context, promotionId: number, country: string | null): Terms | undefined {
  const { terms } = getPromotion(ctx.db, promotionId).content;
  return country === null ? terms.default : terms.by_country[country];
}

function writeTerms(ctx: Context, promotionId: number, country: string | null, terms: Terms): void {
  const content = structuredClone(getPromotion(ctx.db, promotionId).content);
  if (country === null) content.terms.default = terms;
  else content.terms.by_country[country] = terms;
  updatePromotionContent(ctx.db, promotionId, content);
}
