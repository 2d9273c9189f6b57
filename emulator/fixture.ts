/**
 * The seed world: a zod schema for fixture files and a loader that names the path and the
 * problem when a fixture is invalid.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const isoDate = z.iso.datetime({ offset: true });
const country = z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter country code such as DE');

export const TermsSchema = z.strictObject({
  text: z.string().min(1),
  url: z.string().min(1),
  links: z.array(z.strictObject({ label: z.string().min(1), url: z.string().min(1) })),
  required: z.boolean(),
  minimum_age: z.number().int().positive().optional(),
  version: z.string().min(1),
});

export const PrizeSchema = z.strictObject({
  name: z.string().min(1),
  odds: z.number().min(0).max(1),
  stock: z.number().int().min(0),
  face_value: z.number().min(0),
  reward_type: z.string().min(1),
  tier: z.string().min(1),
  /** How delivery goes: at once, after the delivery delay, failing at once, or failing after the delay. */
  delivery: z.enum(['instant', 'delayed', 'failed', 'delayed_failed']),
  redemption_url: z.url().optional(),
});

export const PromotionSchema = z.strictObject({
  brand: z.string().min(1),
  name: z.string().min(1),
  mechanic: z.enum(['instant_win', 'code_unlock', 'content']),
  status: z.enum(['live', 'draft']),
  dates: z.strictObject({ start: isoDate, end: isoDate }),
  copy: z.strictObject({ headline: z.string(), body: z.string(), call_to_action: z.string() }),
  /** Countries allowed to enter; an empty list means the campaign is not restricted. */
  countries: z.array(country),
  budget: z.number().min(0),
  delivery_delay_seconds: z.number().int().positive(),
  prizes: z.array(PrizeSchema).min(1),
  terms: z.strictObject({ default: TermsSchema, by_country: z.record(z.string(), TermsSchema) }),
  routing_paused: z.boolean().default(false),
});

export const FixtureSchema = z
  .strictObject({
    seed: z.string().min(1),
    company: z.strictObject({ name: z.string().min(1) }),
    brands: z
      .array(
        z.strictObject({
          slug: z.string().regex(/^[a-z0-9-]+$/),
          name: z.string().min(1),
          prefix: z.string().regex(/^[A-Z]{2,4}$/),
          skus: z.array(
            z.strictObject({
              name: z.string().min(1),
              prefix: z.string().regex(/^[A-Z0-9-]{2,12}$/),
              batches: z.array(
                z.strictObject({
                  purpose: z.string().min(1),
                  produced_on: z.iso.date(),
                  kind: z.enum(['production', 'test', 'preview']).default('production'),
                  packs: z.number().int().positive().max(10_000),
                  recalled: z.number().int().min(0).default(0),
                }),
              ),
            }),
          ),
        }),
      )
      .min(1),
    collectors: z
      .array(
        z.strictObject({
          email: z.email(),
          country: country.optional(),
          city: z.string().optional(),
          tester: z.boolean().default(false),
        }),
      )
      .min(1),
    promotion: PromotionSchema,
    agency_keys: z.array(z.enum(['sandbox', 'production'])),
    /** Seeded scan history for the reporting API; absent means DEFAULT_HISTORY_SCANS (store/history.ts). */
    history: z.strictObject({ scans: z.number().int().min(0).max(100_000) }).optional(),
  })
  .superRefine((fixture, ctx) => {
    if (!fixture.brands.some((brand) => brand.slug === fixture.promotion.brand)) {
      ctx.addIssue({ code: 'custom', path: ['promotion', 'brand'], message: `no brand has the slug "${fixture.promotion.brand}"` });
    }
    const odds = fixture.promotion.prizes.reduce((sum, prize) => sum + prize.odds, 0);
    if (odds > 1 + 1e-9) ctx.addIssue({ code: 'custom', path: ['promotion', 'prizes'], message: `odds add up to ${odds}, more than 1` });
    if (Date.parse(fixture.promotion.dates.end) <= Date.parse(fixture.promotion.dates.start)) {
      ctx.addIssue({ code: 'custom', path: ['promotion', 'dates', 'end'], message: 'must be after dates.start' });
    }
  });

export type Fixture = z.infer<typeof FixtureSchema>;
export type PromotionContent = Fixture['promotion'];
export type Terms = z.infer<typeof TermsSchema>;

export class FixtureError extends Error {}

/** Parses fixture text; throws FixtureError naming the file, the JSON path and the problem. */
export function parseFixture(text: string, source: string): Fixture {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new FixtureError(`[emulator] invalid fixture ${source}: not JSON (${(error as Error).message})`);
  }
  const result = FixtureSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : '(root)';
    throw new FixtureError(`[emulator] invalid fixture ${source}: ${where}: ${issue.message}`);
  }
  return result.data;
}

export function loadFixture(path: string): Fixture {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new FixtureError(`[emulator] cannot read fixture ${path}: no such file or not readable`);
  }
  return parseFixture(text, path);
}
