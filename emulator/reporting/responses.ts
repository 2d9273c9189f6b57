/**
 * Response bodies of the reporting API as zod schemas: serialize.ts is typed with them, the
 * OpenAPI document is generated from them, and test/openapi parses every recorded response with
 * them. Strict objects, so a field added without documenting it fails that test. Value sets the
 * spec leaves open (activation, reward and device types, tiers) stay plain strings.
 * @see spec §2.7, §2.8, §2.9, §4.4
 */
import { z } from 'zod';
import { apiDocs } from '../api-docs.js';

const id = () => z.number().int().positive();

/** How a scan says what the service does not know (use-cases/reporting/scan-outcome.ts writes it). */
const UNKNOWN_NOTE = 'the empty string when the service does not know it (a collector who gave no country at sign-in), never null or missing.';
const listOf = <T extends z.ZodType>(item: T) => z.strictObject({ data: z.array(item) });

export const BrandSchema = z
  .strictObject({ id: id(), slug: z.string(), name: z.string(), prefix: z.string() })
  .register(apiDocs, { id: 'Brand' });

export const ActivationSchema = z
  .strictObject({ id: id(), name: z.string(), activation_type: z.string() })
  .register(apiDocs, { id: 'Activation', description: 'A promotion of the brand.' });

export const RewardSchema = z
  .strictObject({ id: id(), name: z.string(), reward_type: z.string(), tier: z.string(), face_value: z.number() })
  .register(apiDocs, { id: 'Reward' });

export const ScanOutcomeSchema = z
  .strictObject({
    scan: z.strictObject({
      id: id(),
      unit: z.strictObject({ id: id(), code: z.string() }),
      sku: z.strictObject({ id: id(), name: z.string(), prefix: z.string() }),
      batch_id: id(),
      country: z.string().register(apiDocs, { description: `ISO 3166-1 alpha-2 code of the collector's country, e.g. \`DE\`; ${UNKNOWN_NOTE}` }),
      city: z.string().register(apiDocs, { description: `The collector's city; ${UNKNOWN_NOTE}` }),
      device_type: z.string().register(apiDocs, { description: `\`mobile\`, \`tablet\` or \`desktop\`, from the scanning browser; ${UNKNOWN_NOTE}` }),
      scanned_at: z.iso.datetime(),
    }),
    collector: z
      .strictObject({ id: id(), identified: z.boolean() })
      .nullable()
      .register(apiDocs, { description: 'The opaque collector id; null for a scan without sign-in.' }),
    eligibility: z
      .array(
        z.strictObject({
          activation: ActivationSchema,
          outcome: z.enum(['won', 'lost', 'needs_terms', 'not_signed_in']),
          entry_id: id().nullable(),
          reward: RewardSchema.nullable(),
        }),
      )
      .register(apiDocs, { description: 'One element per activation that applied to the scan; may be empty. Never discloses another collector\'s entry.' }),
  })
  .register(apiDocs, { id: 'ScanOutcome', description: 'A production scan with its outcome; also the payload of `scan.processed`. (spec §2.7)' });

const collectorFields = {
  id: id(),
  points: z.number().int().nonnegative(),
  scans: z.number().int().nonnegative(),
  items_claimed: z.number().int().nonnegative(),
  joined_at: z.iso.datetime(),
};

export const CollectorSchema = z
  .strictObject(collectorFields)
  .register(apiDocs, { id: 'Collector', description: 'A collector of the brand\'s audience: an opaque id, no email or other personal data.' });

export const CollectorDetailSchema = z
  .strictObject({ ...collectorFields, recent_scans: z.array(ScanOutcomeSchema).max(20) })
  .register(apiDocs, { id: 'CollectorDetail', description: 'A collector with the last 20 scans of this brand. (spec §2.8)' });

export const RedemptionSchema = z
  .strictObject({
    entry_id: id(),
    status: z.enum(['claimed', 'redeemed']).register(apiDocs, { description: 'claimed: in the collector\'s wallet; redeemed: used at the point of fulfilment.' }),
    collector: z.strictObject({ id: id() }),
    activation: ActivationSchema,
    reward: RewardSchema,
    code: z.string().nullable(),
    country: z.string().nullable(),
    claimed_at: z.iso.datetime(),
    redeemed_at: z.iso.datetime().nullable(),
    channel: z.enum(['online', 'in_store']).nullable(),
  })
  .register(apiDocs, { id: 'Redemption', description: 'A prize won in one of the brand\'s promotions that reached its collector.' });

const skuRefFields = { id: id(), name: z.string(), prefix: z.string() };

export const SkuSchema = z.strictObject({ ...skuRefFields, created_at: z.iso.datetime() }).register(apiDocs, { id: 'Sku' });

export const BatchSchema = z
  .strictObject({
    id: id(),
    sku: z.strictObject(skuRefFields),
    quantity: z.number().int().positive(),
    purpose: z.string(),
    state: z.enum(['generating', 'generated', 'export_ready']).register(apiDocs, {
      description: '`batch.generated` follows generation of the codes, `batch.export_ready` the downloadable file.',
    }),
    created_at: z.iso.datetime(),
    download_url: z.url(),
  })
  .register(apiDocs, { id: 'Batch', description: 'A batch of unit codes, generated asynchronously; also the `data` of both batch events.' });

export const BrandListSchema = listOf(BrandSchema).register(apiDocs, { id: 'BrandList' });
export const ScanListSchema = listOf(ScanOutcomeSchema).register(apiDocs, { id: 'ScanList' });
export const CollectorListSchema = listOf(CollectorSchema).register(apiDocs, { id: 'CollectorList' });
export const RedemptionListSchema = listOf(RedemptionSchema).register(apiDocs, { id: 'RedemptionList' });
export const SkuListSchema = listOf(SkuSchema).register(apiDocs, { id: 'SkuList' });

/** The CSV of a batch: a header line, then one line per unit. */
export const BatchCsvSchema = z.string().regex(/^unit_id,code,url\n(\d+,[A-Z0-9-]+,\S+\n)*$/);

export type CollectorJson = z.infer<typeof CollectorSchema>;
export type CollectorDetailJson = z.infer<typeof CollectorDetailSchema>;
export type RedemptionJson = z.infer<typeof RedemptionSchema>;
export type SkuJson = z.infer<typeof SkuSchema>;
export type BatchJson = z.infer<typeof BatchSchema>;
