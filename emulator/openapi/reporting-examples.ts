/**
 * Examples of the reporting API's bodies and of its webhook events, taken from the default world on
 * a frozen clock. Typed with the response schemas, and test/openapi parses each with the served
 * document's schema, so an example cannot drift from what the emulator answers or sends.
 */
import type { z } from 'zod';
import type {
  BatchSchema, BrandListSchema, CollectorDetailSchema, CollectorListSchema, RedemptionListSchema, ScanListSchema, ScanOutcomeSchema, SkuListSchema, SkuSchema,
} from '../reporting/responses.js';
import type { BatchBody, SkuBody } from '../reporting/schemas.js';
import type { ActivationEnteredSchema } from '../webhooks/payloads.js';
import type { Example } from './document.js';

const one = (summary: string, value: unknown): Record<string, Example> => ({ example: { summary, value } });

const brand = { id: 1, slug: 'alpenmilch', name: 'Alpenmilch', prefix: 'AM' };
const activation = { id: 1, name: 'Spring Instant Win', activation_type: 'instant_win' };
const voucher = { id: 1, name: '5 € voucher', reward_type: 'coupon', tier: 'standard', face_value: 5 };
const milk = { id: 1, name: 'Alpenmilch Alpine Milk 100g', prefix: 'AM-CHO' };

const scan: z.output<typeof ScanOutcomeSchema> = {
  scan: {
    id: 2993,
    unit: { id: 248, code: 'AM-CHO-260809-AAB72GA4CWFF' },
    sku: milk,
    batch_id: 6,
    country: 'AT',
    city: 'Vienna',
    device_type: 'mobile',
    scanned_at: '2026-11-21T03:37:31.155Z',
  },
  collector: { id: 3, identified: true },
  eligibility: [{ activation, outcome: 'won', entry_id: 412, reward: voucher }],
};

const anonymousScan: z.output<typeof ScanOutcomeSchema> = {
  scan: {
    id: 3000,
    unit: { id: 822, code: 'AM-HAZ-260809-AADV8TFF6KGK' },
    sku: { id: 2, name: 'Alpenmilch Hazelnut 100g', prefix: 'AM-HAZ' },
    batch_id: 7,
    country: 'DE',
    city: 'Hamburg',
    device_type: 'mobile',
    scanned_at: '2026-11-21T08:53:42.022Z',
  },
  collector: null,
  eligibility: [{ activation, outcome: 'not_signed_in', entry_id: null, reward: null }],
};

const collector = { id: 3, points: 1190, scans: 132, items_claimed: 47, joined_at: '2026-08-24T22:36:23.601Z' };

const batch: z.output<typeof BatchSchema> = {
  id: 9,
  sku: milk,
  quantity: 20000,
  purpose: 'Autumn run',
  state: 'generating',
  created_at: '2026-11-21T10:00:00.000Z',
  download_url: 'http://127.0.0.1:4010/api/v1/brands/alpenmilch/skus/1/batches/9/download',
};

const entered: z.output<typeof ActivationEnteredSchema> = {
  entry_id: 280,
  entered_at: '2026-11-21T10:00:00.000Z',
  activation,
  outcome: 'won',
  delivery_state: 'delivered',
  reward: voucher,
  collector: { id: 1, identified: true },
  unit: { id: 14, code: 'AM-CHO-260809-AAC3K7QWE2PM' },
  sku: milk,
  country: 'DE',
};

export const REPORTING_EXAMPLES = {
  brands: one('Both brands of the company', { data: [brand, { id: 2, slug: 'nordkakao', name: 'Nordkakao', prefix: 'NK' }] } satisfies z.output<typeof BrandListSchema>),
  scans: one('A page of two scans, one anonymous', { data: [anonymousScan, scan] } satisfies z.output<typeof ScanListSchema>),
  scan: one('A signed-in scan whose pack won', scan),
  collectors: one('A page of one collector', { data: [collector] } satisfies z.output<typeof CollectorListSchema>),
  collector: one('A collector with the last of their scans', { ...collector, recent_scans: [scan] } satisfies z.output<typeof CollectorDetailSchema>),
  redemptions: one('A prize claimed, not yet redeemed', {
    data: [{
      entry_id: 280, status: 'claimed', collector: { id: 1 }, activation, reward: voucher, code: 'AM-3S7VHGEZ6P', country: 'DE',
      claimed_at: '2026-11-21T10:00:00.000Z', redeemed_at: null, channel: null,
    }],
  } satisfies z.output<typeof RedemptionListSchema>),
  skus: one("The brand's SKUs", { data: [{ ...milk, created_at: '2026-11-21T10:00:00.000Z' }] } satisfies z.output<typeof SkuListSchema>),
  skuBody: one('A new SKU under the brand prefix AM', { name: 'Alpenmilch Almond 100g', prefix: 'AM-ALM' } satisfies z.input<typeof SkuBody>),
  sku: one('The new SKU', { id: 4, name: 'Alpenmilch Almond 100g', prefix: 'AM-ALM', created_at: '2026-11-21T10:00:00.000Z' } satisfies z.output<typeof SkuSchema>),
  batchBody: one('20,000 codes', { quantity: 20000, purpose: 'Autumn run' } satisfies z.input<typeof BatchBody>),
  batch: one('The batch, being generated', batch),
  csv: one('The first units of a batch', 'unit_id,code,url\n3001,AM-CHO-261121-AA7HGQ2KXM4P,http://127.0.0.1:4010/q/AM-CHO-261121-AA7HGQ2KXM4P\n'),
};

/** One envelope per event: `{id, event, occurred_at, brand, data}`. */
const envelope = (event: string, data: unknown) => ({ id: '4b0e5f3a9d2c47e18b6a0f5d3c2e9c12', event, occurred_at: '2026-11-21T10:00:00.000Z', brand, data });

export const EVENT_EXAMPLES = {
  'scan.processed': one('A signed-in scan whose pack won', envelope('scan.processed', scan)),
  'activation.entered': one('A production entry that won', envelope('activation.entered', entered)),
  'batch.generated': one('The codes of a batch are generated', envelope('batch.generated', { ...batch, state: 'generated' })),
  'batch.export_ready': one('The CSV of a batch can be downloaded', envelope('batch.export_ready', { ...batch, state: 'export_ready' })),
};
