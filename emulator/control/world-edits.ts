/**
 * Edits of the world the harness makes while journeys run (control plane, behind the control
 * guard): a country's terms changed mid-journey (`updatePromotionContent`, restored by
 * `POST /_emulator/faults/clear`), a pending delivery settled now, and the packs not entered yet
 * with the outcome of their seeded draw (and `outcomes`: every outcome that draw can give). Terms and packs are the default promotion's, or those of
 * the promotion `?promotion=ID|slug` names.
 */
import { type EndpointTable, anyone } from '../endpoints.js';
import { type Refused, refused } from '../wire-contract.js';
import { z } from 'zod';
import type { Context } from '../context.js';
import { promotionParam } from '../console/promotion-param.js';
import { ControlError } from './errors.js';
import { WholeText, validate } from '../validation.js';
import { TermsSchema, type Terms } from '../fixture.js';
import { settlePendingDeliveryNow } from '../store/entries.js';
import { reachableOutcomes, unenteredPacks } from '../store/known-packs.js';
import { defaultPromotionId, getPromotion, loadCampaign, updatePromotionContent } from '../store/promotions.js';

const TermsBody = z.strictObject({
  /** A country of `terms.by_country`, or null for the default terms. */
  country: z.string().regex(/^[A-Z]{2}$/).nullable(),
  terms: TermsSchema.partial().extend({ minimum_age: z.number().int().positive().nullable().optional() }),
});
const PacksQuery = z.strictObject({ per_outcome: WholeText(1, 1000).default(100), promotion: z.string().optional() });
const SettleBody = z.strictObject({ pack: z.string().min(1).max(64), outcome: z.enum(['delivered', 'failed']).default('delivered') });

/** Terms as they were before the first edit, per promotion and country: `<promotion id>:<country or "">`. */
export type OriginalTerms = Map<string, Terms>;

export function worldEditRows(endpoint: EndpointTable<Context>, ctx: Context, originals: OriginalTerms): void {
  endpoint({
    method: 'get', path: '/terms', caller: anyone,
    input: (req) => req.query,
    run: (ctx, _caller, query) => getPromotion(ctx.db, promotionParam(ctx, query)).content,
    answer: (content) => ({ status: 200, body: { countries: content.countries, default: content.terms.default, by_country: content.terms.by_country } }),
  });
  endpoint({
    method: 'post', path: '/terms', caller: (req) => promotionParam(ctx, req.query),
    input: (req) => validate(TermsBody, req.body, { hint: 'Send {"country": "CH" | null, "terms": {"version": "...", "text": "..."}}.' }),
    run: (on, promotionId, edit) => editTerms(on, originals, promotionId, edit),
    refusal: (_reason, _caller, { country }) => new ControlError('not_found', { message: `The promotion has no terms for ${country}; edit the default terms with "country": null.` }),
    answer: (body) => ({ status: 200, body }),
  });
  endpoint({
    method: 'post', path: '/deliveries/settle', caller: anyone,
    input: (req) => validate(SettleBody, req.body, { hint: 'Send {"pack": "<code>", "outcome": "delivered" | "failed"}.' }),
    run: (ctx, _caller, { pack, outcome }) => {
      const changed = settlePendingDeliveryNow(ctx.db, pack, outcome, ctx.clock.now());
      return changed ? { entry_id: changed.id, settles_as: outcome } : refused('not_found');
    },
    refusal: (_reason, _caller, { pack }) => new ControlError('not_found', { message: `No pending delivery for pack ${pack}.` }),
    answer: (body) => ({ status: 200, body }),
  });
  endpoint({
    method: 'get', path: '/packs', caller: anyone,
    input: (req) => ({ query: req.query, ...validate(PacksQuery, req.query, { hint: 'per_outcome is a whole number from 1 to 1000.' }) }),
    run: (ctx, _caller, { query, per_outcome: perOutcome }) => {
      const campaign = loadCampaign(ctx.db, promotionParam(ctx, query));
      return { data: unenteredPacks(ctx.db, ctx.seed, campaign, perOutcome), outcomes: reachableOutcomes(campaign.prizes) };
    },
    answer: (body) => ({ status: 200, body }),
  });
}

/** The terms of one country (or the default ones) edited, their first version kept in `originals`. */
function editTerms(ctx: Context, originals: OriginalTerms, promotionId: number, { country, terms }: z.infer<typeof TermsBody>): { country: string | null; terms: Terms } | Refused<'not_found'> {
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

