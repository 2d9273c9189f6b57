/**
 * Query parameters and bodies of the reporting API. Failures become 422 with `details` naming each
 * field; unknown query parameters are ignored, unknown body fields are refused.
 * @see spec §4.4, §7, §8
 */
import { z } from 'zod';
import { validate } from '../validation.js';
import { apiDocs } from '../api-docs.js';
import { ID_DIGITS, isIdText } from '../domain/ids.js';
import { SCAN_PAGE } from '../domain/limits.js';
import { ReportingError } from './errors.js';

const { max: MAX_PAGE, default: DEFAULT_PAGE } = SCAN_PAGE;
/** The largest batch one request may generate; the spec leaves it open (§8). */
const MAX_BATCH_QUANTITY = 1_000_000;

const single = { error: 'must be given once, as text' };
/** A body field's type error, or `is required` when it is missing. */
const expected = (message: string) => ({ error: (issue: { input: unknown }) => (issue.input === undefined ? 'is required' : message) });

const wholeNumber = (min: number, max: number) =>
  z
    .string(single)
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const ISO_HINT = 'must be an ISO 8601 time with a zone, such as 2026-04-01T00:00:00Z, or a date such as 2026-04-01';
const isoDateTime = z.iso.datetime({ offset: true });
const isoDate = z.iso.date();

/** An instant in milliseconds; a bare date means its midnight UTC. */
const instant = z
  .string(single)
  .refine((text) => isoDateTime.safeParse(text).success || isoDate.safeParse(text).success, ISO_HINT)
  .transform((text) => Date.parse(text));

const page = {
  limit: wholeNumber(1, MAX_PAGE).default(DEFAULT_PAGE).register(apiDocs, {
    description: `Page size, 1 to ${MAX_PAGE}; default ${DEFAULT_PAGE}.`, wire: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: DEFAULT_PAGE },
  }),
  offset: wholeNumber(0, Number.MAX_SAFE_INTEGER).default(0).register(apiDocs, { description: 'Records to skip; default 0.', wire: { type: 'integer', minimum: 0, default: 0 } }),
};

const period = {
  since: instant.optional().register(apiDocs, {
    description: 'On or after this time (ISO 8601; a bare date is its midnight UTC).', wire: { type: 'string', format: 'date-time', examples: ['2026-04-01T00:00:00Z'] },
  }),
  until: instant.optional().register(apiDocs, {
    description: 'On or before this time; not before `since`.', wire: { type: 'string', format: 'date-time', examples: ['2026-04-30T23:59:59Z'] },
  }),
};

const inOrder = (query: { since?: number; until?: number }) => query.since === undefined || query.until === undefined || query.since <= query.until;
const ORDER = { message: 'must not be before since', path: ['until'] };

export const ScanListQuery = z.object({ ...period, ...page }).refine(inOrder, ORDER);

export const CollectorListQuery = z.object(page);

export const RedemptionListQuery = z
  .object({ ...period, status: z.enum(['claimed', 'redeemed'], { error: 'must be claimed or redeemed' }).optional(), ...page })
  .refine(inOrder, ORDER);

export const SkuBody = z.strictObject({
  name: z.string(expected('must be text')).trim().min(1, 'must not be empty').max(120, 'must be at most 120 characters'),
  prefix: z
    .string(expected('must be text'))
    .max(12, 'must be at most 12 characters')
    .regex(/^[A-Z0-9]+(-[A-Z0-9]+)+$/, 'must be upper-case letters and digits in hyphen-separated parts, such as AM-CHO')
    .register(apiDocs, { description: "The code prefix: the brand's prefix, a hyphen, then the SKU's own part; unique." }),
}).register(apiDocs, { id: 'SkuBody' });

export const BatchBody = z.strictObject({
  quantity: z
    .number(expected('must be a whole number'))
    .int('must be a whole number')
    .positive('must be positive')
    .max(MAX_BATCH_QUANTITY, `must be at most ${MAX_BATCH_QUANTITY}`),
  purpose: z.string(expected('must be text')).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
}).register(apiDocs, { id: 'BatchBody' });

/** The reporting API refuses invalid fields with 422 `validation_failed` (spec §7). */
export function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  return validate(schema, input, { error: (details) => new ReportingError('validation_failed', { details }) });
}

/** Path ids: anything but a positive whole number names nothing, so 404. */
export const PathId = z.string().regex(ID_DIGITS).register(apiDocs, { description: 'A positive whole number; anything else is 404.' });

export const BrandSlug = z.string().register(apiDocs, { description: "The slug of one of the company's brands; any other is 404." });

export function pathId(text: string | undefined): number {
  if (text === undefined || !isIdText(text)) throw new ReportingError('not_found');
  return Number(text);
}
