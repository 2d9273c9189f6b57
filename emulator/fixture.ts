/**
 * The seed world: a zod schema for fixture files and a loader that names the path and the
 * problem when a fixture is invalid.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { z } from 'zod';

/**
 * The longest text each kind of fixture field may hold, in characters (docs/limits.md): the
 * dashboard, the journey's pages and the control plane carry these on every answer.
 */
export const FIXTURE_TEXT_LIMITS = {
  /** Names, labels, slugs referred to, versions, cities, the seed. */
  name: 200,
  /** A promotion's `copy.body`. */
  copy: 2_000,
  /** A terms `text`. */
  terms: 20_000,
  /** Every URL. */
  url: 2_048,
  /** A collector's email, as the address format allows. */
  email: 254,
} as const;

const most = (kind: keyof typeof FIXTURE_TEXT_LIMITS) => [FIXTURE_TEXT_LIMITS[kind], `must be at most ${FIXTURE_TEXT_LIMITS[kind]} characters`] as const;
const nameText = z.string().min(1).max(...most('name'));
const urlText = z.string().min(1).max(...most('url'));

const isoDate = z.iso.datetime({ offset: true });
const country = z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter country code such as DE');

export const TermsSchema = z.strictObject({
  text: z.string().min(1).max(...most('terms')),
  url: urlText,
  links: z.array(z.strictObject({ label: nameText, url: urlText })),
  required: z.boolean(),
  minimum_age: z.number().int().positive().optional(),
  version: nameText,
});

export const PrizeSchema = z.strictObject({
  name: nameText,
  odds: z.number().min(0).max(1),
  stock: z.number().int().min(0),
  face_value: z.number().min(0),
  reward_type: nameText,
  tier: nameText,
  /** How delivery goes: at once, after the delivery delay, failing at once, or failing after the delay. */
  delivery: z.enum(['instant', 'delayed', 'failed', 'delayed_failed']),
  redemption_url: z.url().max(...most('url')).optional(),
});

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SKU_PREFIX = /^[A-Z0-9-]{2,12}$/;

export const PromotionSchema = z.strictObject({
  /** How the CLI, the control plane and the dashboard name it; derived from the name when absent. */
  slug: z.string().regex(SLUG, 'must be lower-case letters and digits joined by hyphens').max(64).optional(),
  brand: nameText,
  /**
   * The SKUs (by prefix) whose packs enter this promotion. Absent: every SKU of its brand that no
   * other promotion lists, including SKUs created later through the reporting API.
   */
  skus: z.array(z.string().regex(SKU_PREFIX)).min(1).optional(),
  name: nameText,
  /** instant_win draws a prize by its odds; code_unlock and content give one of their prizes to every admitted entry (decisions 007 to 009). */
  mechanic: z.enum(['instant_win', 'code_unlock', 'content']),
  status: z.enum(['live', 'draft']),
  dates: z.strictObject({ start: isoDate, end: isoDate }),
  copy: z.strictObject({ headline: z.string().max(...most('name')), body: z.string().max(...most('copy')), call_to_action: z.string().max(...most('name')) }),
  /** Countries allowed to enter; an empty list means the campaign is not restricted. */
  countries: z.array(country),
  budget: z.number().min(0),
  delivery_delay_seconds: z.number().int().positive(),
  prizes: z.array(PrizeSchema).min(1),
  terms: z.strictObject({ default: TermsSchema, by_country: z.record(country, TermsSchema) }),
  routing_paused: z.boolean().default(false),
  /** code_unlock only: the pool's codes are this prefix, a hyphen and ten characters; it holds as many codes as its prizes' stock. */
  code_pool: z.strictObject({ prefix: z.string().regex(/^[A-Z0-9]{2,12}$/) }).optional(),
});

const AgencyKeysSchema = z.array(z.enum(['sandbox', 'production']));

/** A promotion beyond the default one, with the agency keys it is seeded with. */
const MorePromotionSchema = PromotionSchema.extend({ agency_keys: AgencyKeysSchema.default(['sandbox', 'production']) });

const BrandSchema = z.strictObject({
  slug: z.string().regex(/^[a-z0-9-]+$/).max(64),
  name: nameText,
  prefix: z.string().regex(/^[A-Z]{2,4}$/),
  skus: z.array(
    z.strictObject({
      name: nameText,
      prefix: z.string().regex(SKU_PREFIX),
      batches: z.array(
        z.strictObject({
          purpose: nameText,
          produced_on: z.iso.date(),
          kind: z.enum(['production', 'test', 'preview']).default('production'),
          packs: z.number().int().positive().max(10_000),
          recalled: z.number().int().min(0).default(0),
        }),
      ),
    }),
  ),
});

/**
 * A world: companies with their brands, SKUs and packs; collectors; promotions. `company` and
 * `brands` are the first company; `companies` adds more, each with its own reporting token.
 * `promotion` is the default promotion (what `emulator env` shows at its top level and the CLI
 * acts on without --promotion); `promotions` adds more, each with its own keys and lifecycle.
 */
export const FixtureSchema = z
  .strictObject({
    seed: nameText,
    company: z.strictObject({ name: nameText }),
    brands: z.array(BrandSchema).min(1),
    companies: z.array(z.strictObject({ name: nameText, brands: z.array(BrandSchema).min(1) })).default([]),
    collectors: z
      .array(
        z.strictObject({
          email: z.email().max(...most('email')),
          country: country.optional(),
          city: z.string().max(...most('name')).optional(),
          tester: z.boolean().default(false),
        }),
      )
      .min(1),
    promotion: PromotionSchema,
    promotions: z.array(MorePromotionSchema).default([]),
    /** The default promotion's seeded agency keys. */
    agency_keys: AgencyKeysSchema,
    /** Seeded scan history for the reporting API; absent means DEFAULT_HISTORY_SCANS (store/history.ts). */
    history: z.strictObject({ scans: z.number().int().min(0).max(100_000) }).optional(),
  })
  .superRefine((fixture, ctx) => {
    const brands = [...fixture.brands, ...fixture.companies.flatMap((company) => company.brands)];
    unique(ctx, brands.map((brand) => brand.slug), 'brand slug', ['brands']);
    unique(ctx, brands.flatMap((brand) => brand.skus.map((sku) => sku.prefix)), 'SKU prefix', ['brands']);
    const promotions: Array<[PromotionContent, PropertyKey[]]> = [[fixture.promotion, ['promotion']], ...fixture.promotions.map((promotion, i): [PromotionContent, PropertyKey[]] => [promotion, ['promotions', i]])];
    unique(ctx, promotions.map(([promotion]) => promotionSlug(promotion)), 'promotion slug', ['promotions']);
    const listed = new Set<string>();
    const coversRest = new Set<string>();
    for (const [promotion, path] of promotions) {
      checkPromotion(ctx, promotion, path, brands.find((brand) => brand.slug === promotion.brand));
      for (const sku of promotion.skus ?? []) {
        if (listed.has(sku)) ctx.addIssue({ code: 'custom', path: [...path, 'skus'], message: `SKU ${sku} is listed by another promotion: a pack enters one promotion` });
        listed.add(sku);
      }
      if (!promotion.skus && coversRest.has(promotion.brand)) {
        ctx.addIssue({ code: 'custom', path: [...path, 'skus'], message: `brand "${promotion.brand}" already has a promotion without a skus list: list this one's SKUs` });
      }
      if (!promotion.skus) coversRest.add(promotion.brand);
    }
  });

/** One promotion's own rules: its brand, its SKUs, its odds, its dates, and what its type needs. */
function checkPromotion(ctx: z.RefinementCtx, promotion: PromotionContent, path: PropertyKey[], brand: z.infer<typeof BrandSchema> | undefined): void {
  const issue = (where: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path: [...path, ...where], message });
  if (!brand) issue(['brand'], `no brand has the slug "${promotion.brand}"`);
  for (const sku of promotion.skus ?? []) {
    if (brand && !brand.skus.some((candidate) => candidate.prefix === sku)) issue(['skus'], `brand "${promotion.brand}" has no SKU ${sku}`);
  }
  const odds = promotion.prizes.reduce((sum, prize) => sum + prize.odds, 0);
  if (odds > 1 + 1e-9) issue(['prizes'], `odds add up to ${odds}, more than 1`);
  if (Date.parse(promotion.dates.end) <= Date.parse(promotion.dates.start)) issue(['dates', 'end'], 'must be after dates.start');
  if (promotion.mechanic === 'instant_win') {
    if (promotion.code_pool) issue(['code_pool'], 'only a code_unlock promotion has a code pool');
    return;
  }
  // Code unlock and content give one of their prizes to every admitted entry. decisions 008, 009
  if (Math.abs(odds - 1) > 1e-9) issue(['prizes'], `the odds of a ${promotion.mechanic} promotion's prizes add up to 1: every admitted entry gets one (they add up to ${odds})`);
  if (promotion.mechanic === 'code_unlock' && !promotion.code_pool) issue(['code_pool'], 'a code_unlock promotion needs a code_pool: {"prefix": "..."}');
  if (promotion.mechanic !== 'content') return;
  if (promotion.code_pool) issue(['code_pool'], 'only a code_unlock promotion has a code pool');
  promotion.prizes.forEach((prize, index) => {
    if (!prize.redemption_url) issue(['prizes', index, 'redemption_url'], 'a content promotion unlocks its content at the prize\'s redemption_url');
  });
}

function unique(ctx: z.RefinementCtx, values: string[], what: string, path: PropertyKey[]): void {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) ctx.addIssue({ code: 'custom', path, message: `${what} "${value}" is used twice` });
    seen.add(value);
  }
}

/** The promotion's slug: its own, or its name in lower case with hyphens. */
export function promotionSlug(promotion: Pick<PromotionContent, 'slug' | 'name'>): string {
  return promotion.slug ?? (promotion.name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64) || 'promotion');
}

export type Fixture = z.infer<typeof FixtureSchema>;
export type PromotionContent = z.infer<typeof PromotionSchema>;
export type Terms = z.infer<typeof TermsSchema>;

export class FixtureError extends Error {}

/**
 * Parses fixture text; throws FixtureError naming the file, the JSON path and the problem. It never
 * quotes the text: a `--fixture` pointing at another file (a symlink to /etc/shadow) must not
 * print that file to the terminal or the log.
 */
export function parseFixture(text: string, source: string): Fixture {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new FixtureError(`[emulator] invalid fixture ${source}: not JSON${where(text, error as Error)}`);
  }
  // Parsed once per start: compiling zod's fast path for every object of the schema costs more than it saves.
  const result = FixtureSchema.safeParse(json, { jitless: true });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    // Field names and zod's message (which quotes unknown ones) come from the file: cut, the line stays one line.
    const where = issue.path.length ? issue.path.map((part) => clip(String(part), 40)).join('.') : '(root)';
    throw new FixtureError(`[emulator] invalid fixture ${source}: ${clip(where, 200)}: ${clip(issue.message, 200)}`);
  }
  return result.data;
}

function clip(text: string, max: number): string {
  const line = text.replace(/[\r\n]+/g, ' ');
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** Where the JSON parser stopped, as a line and column, when it says (its message quotes the text, so only the position is kept). */
function where(text: string, error: Error): string {
  const position = /at position (\d+)/.exec(error.message)?.[1];
  if (position === undefined) return error.message.includes('end of JSON') ? ' (it ends too soon)' : '';
  const before = text.slice(0, Number(position)).split('\n');
  return ` (at line ${before.length} column ${before.at(-1)!.length + 1})`;
}

/** The default fixture is 12 KB; a world of thousands of collectors stays far below this. */
export const MAX_FIXTURE_BYTES = 16 * 1024 * 1024;

export function loadFixture(path: string): Fixture {
  return parseFixture(readFixtureText(path), path);
}

/**
 * A fixture's text: from a regular file (a symlink to one too) of at most MAX_FIXTURE_BYTES.
 * Opened without blocking, so a FIFO or a device (`/dev/zero`) is refused rather than waited on.
 */
export function readFixtureText(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    throw new FixtureError(`[emulator] cannot read fixture ${path}: no such file or not readable`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new FixtureError(`[emulator] cannot read fixture ${path}: not a regular file${stat.isDirectory() ? ' (a folder)' : ''}`);
    if (stat.size > MAX_FIXTURE_BYTES) throw new FixtureError(`[emulator] cannot read fixture ${path}: ${stat.size} bytes, over the ${MAX_FIXTURE_BYTES / 1024 / 1024} MB a fixture may have`);
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    for (let got = -1; got !== 0 && read < buffer.length; read += got) got = readSync(fd, buffer, read, buffer.length - read, read);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
