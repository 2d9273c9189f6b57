/**
 * Edits of the world the harness makes while journeys run (control plane, behind the control
 * guard): a country's terms changed mid-journey (`updatePromotionContent`, restored by
 * `POST /_emulator/faults/clear`), a pending delivery settled now, and the packs not entered yet
 * with the outcome of their seeded draw.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { drawNumber, expectedOutcome } from '../domain/draw.js';
import { ApiError } from '../experience/errors.js';
import { TermsSchema, type Terms } from '../fixture.js';
import { firstPromotionId, getPromotion, listPrizes, updatePromotionContent } from '../store/promotions.js';
import { detailsOf } from '../experience/schemas.js';

const TermsBody = z.strictObject({
  /** A country of `terms.by_country`, or null for the default terms. */
  country: z.string().regex(/^[A-Z]{2}$/).nullable(),
  terms: TermsSchema.partial().extend({ minimum_age: z.number().int().positive().nullable().optional() }),
});
const PacksQuery = z.strictObject({ per_outcome: z.coerce.number().int().min(1).max(1000).default(100) });
const SettleBody = z.strictObject({ pack: z.string().min(1).max(64), outcome: z.enum(['delivered', 'failed']).default('delivered') });

/** Terms as they were before the first edit, per country ("" for the default terms). */
export type OriginalTerms = Map<string, Terms>;

export function worldEditsRouter(ctx: Context, originals: OriginalTerms): Router {
  const router = Router();
  router.get('/terms', (_req, res) => {
    const { content } = getPromotion(ctx.db, firstPromotionId(ctx.db));
    res.json({ countries: content.countries, default: content.terms.default, by_country: content.terms.by_country });
  });
  router.post('/terms', (req, res) => {
    const { country, terms } = parse(TermsBody, req.body, 'Send {"country": "CH" | null, "terms": {"version": "...", "text": "..."}}.');
    const current = termsOf(ctx, country);
    if (!current) throw new ApiError('not_found', { message: `The promotion has no terms for ${country}; edit the default terms with "country": null.` });
    if (!originals.has(country ?? '')) originals.set(country ?? '', current);
    const { minimum_age: age, ...rest } = terms;
    const next: Terms = { ...current, ...rest };
    if (age === null) delete next.minimum_age;
    else if (age !== undefined) next.minimum_age = age;
    writeTerms(ctx, country, next);
    res.json({ country, terms: next });
  });

  router.post('/deliveries/settle', (req, res) => {
    const { pack, outcome } = parse(SettleBody, req.body, 'Send {"pack": "<code>", "outcome": "delivered" | "failed"}.');
    const changed = ctx.db
      .prepare(`UPDATE entries SET delivery_due_at = ?, delivery_outcome = ?
        WHERE sandbox = 0 AND delivery_state = 'processing' AND unit_id = (SELECT id FROM units WHERE code = ?) RETURNING id`)
      .get(ctx.clock.now(), outcome, pack) as { id: number } | undefined;
    if (!changed) throw new ApiError('not_found', { message: `No pending delivery for pack ${pack}.` });
    res.json({ entry_id: changed.id, settles_as: outcome });
  });
  router.get('/packs', (req, res) => {
    const { per_outcome: perOutcome } = parse(PacksQuery, req.query, 'per_outcome is a whole number from 1 to 1000.');
    res.json({ data: unenteredPacks(ctx, perOutcome) });
  });
  return router;
}

/** Puts back every edited terms; returns which ("default" or the country). */
export function restoreTerms(ctx: Context, originals: OriginalTerms): string[] {
  const restored = [...originals.keys()].map((key) => key || 'default');
  for (const [key, terms] of originals) writeTerms(ctx, key || null, terms);
  originals.clear();
  return restored;
}

function termsOf(ctx: Context, country: string | null): Terms | undefined {
  const { terms } = getPromotion(ctx.db, firstPromotionId(ctx.db)).content;
  return country === null ? terms.default : terms.by_country[country];
}

function writeTerms(ctx: Context, country: string | null, terms: Terms): void {
  const promotion = getPromotion(ctx.db, firstPromotionId(ctx.db));
  const content = structuredClone(promotion.content);
  if (country === null) content.terms.default = terms;
  else content.terms.by_country[country] = terms;
  updatePromotionContent(ctx.db, promotion.id, content);
}

/** Production packs of the promotion's brand not entered yet, with the outcome their seeded draw gives. */
/** Units looked at, at most, per request: a brand may hold millions of generated codes. */
const PACKS_SCANNED = 50_000;

/**
 * Production packs of the promotion's brand not entered yet, with the outcome their seeded draw
 * gives: up to `perOutcome` of each outcome (a pending one counted by how it settles).
 */
function unenteredPacks(ctx: Context, perOutcome: number): Array<{ code: string; outcome: string; settles_as?: string }> {
  const promotion = getPromotion(ctx.db, firstPromotionId(ctx.db));
  const prizes = listPrizes(ctx.db, promotion.id);
  const units = ctx.db
    .prepare(`SELECT u.id, u.code FROM units u JOIN skus s ON s.id = u.sku_id
      WHERE s.brand_id = ? AND u.kind = 'production' AND u.recalled = 0
        AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.promotion_id = ? AND e.unit_id = u.id AND e.sandbox = 0) ORDER BY u.id LIMIT ?`)
    .iterate(promotion.brand_id, promotion.id, PACKS_SCANNED) as IterableIterator<{ id: number; code: string }>;
  const counts = new Map<string, number>();
  const packs: Array<{ code: string; outcome: string; settles_as?: string }> = [];
  for (const unit of units) {
    const outcome = expectedOutcome(drawNumber(ctx.seed, promotion.id, unit.id), prizes);
    const kind = `${outcome.outcome}:${outcome.settles_as ?? ''}`;
    if ((counts.get(kind) ?? 0) >= perOutcome) continue;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    packs.push({ code: unit.code, ...outcome });
  }
  return packs;
}

/** The body or query, or a 400 with the hint and the fields' problems. */
export function parse<T>(schema: z.ZodType<T>, input: unknown, hint: string): T {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw new ApiError('invalid_request', { message: hint, details: detailsOf(parsed.error) });
  return parsed.data;
}
