/**
 * JSON shapes of the reporting API besides the scan outcome (use-cases/reporting/scan-outcome.ts). The spec leaves
 * SKU, batch, redemption and collector-list elements open (§4.4); these stay close to the shapes
 * it does show. A brand is `{id, slug, name, prefix}` as stored, the webhook envelope's shape. @see spec §2.8, §2.9
 */
import type { AudienceMember } from '../store/audience.js';
import type { Batch } from '../store/batches.js';
import type { Brand } from '../store/promotions.js';
import type { RedemptionRow } from '../store/redemptions.js';
import type { Sku } from '../store/skus.js';
import type { BatchJson, CollectorDetailJson, CollectorJson, RedemptionJson, SkuJson } from './responses.js';
import { type Activation, type ScanOutcome, activationJson, rewardJson } from '../use-cases/reporting/scan-outcome.js';

/** Points are earned once per pack scanned (10 each, as in the public reference's example). */
const POINTS_PER_PACK = 10;

const iso = (at: number) => new Date(at).toISOString();

/** A collector-list element: the fields of §2.8 without `recent_scans`. */
export function collectorJson(member: AudienceMember): CollectorJson {
  return { id: member.id, points: member.packs * POINTS_PER_PACK, scans: member.scans, items_claimed: member.items_claimed, joined_at: iso(member.joined_at) };
}

/** @see spec §2.8 */
export function collectorDetailJson(member: AudienceMember, recentScans: ScanOutcome[]): CollectorDetailJson {
  return { ...collectorJson(member), recent_scans: recentScans };
}

export function skuJson(sku: Sku): SkuJson {
  return { id: sku.id, name: sku.name, prefix: sku.prefix, created_at: iso(sku.created_at) };
}

/** The 202 answer to batch creation and the `data` of both batch events. */
export function batchJson(batch: Batch, sku: Sku, brand: Brand, baseUrl: string): BatchJson {
  return {
    id: batch.id,
    sku: { id: sku.id, name: sku.name, prefix: sku.prefix },
    quantity: batch.quantity,
    purpose: batch.purpose,
    state: batch.state,
    created_at: iso(batch.created_at),
    download_url: `${baseUrl}/api/v1/brands/${brand.slug}/skus/${sku.id}/batches/${batch.id}/download`,
  };
}

/**
 * A redemption: a prize won in one of the brand's promotions that reached its collector.
 * - `entry_id`: the entry that won it (also `eligibility[].entry_id` of the scan outcome);
 * - `status`: `claimed` (delivered to the collector's wallet) or `redeemed` (used at the point of fulfilment);
 * - `collector.id`: the opaque collector id; no email or other personal data;
 * - `activation`, `reward`: as in the scan outcome;
 * - `code`: the delivered reward code, to reconcile with the fulfilment partner;
 * - `country`: where the collector entered;
 * - `claimed_at`, `redeemed_at` (null until redeemed);
 * - `channel`: `online` (the prize has a redemption URL) or `in_store`, null until redeemed.
 */
export function redemptionJson(row: RedemptionRow, activation: Activation): RedemptionJson {
  const prize = activation.prizes.get(row.prize_id)!;
  return {
    entry_id: row.entry_id,
    status: row.redeemed_at === null ? 'claimed' : 'redeemed',
    collector: { id: row.collector_id },
    activation: activationJson(activation.promotion),
    reward: rewardJson(prize, row.prize_name),
    code: (JSON.parse(row.codes) as string[])[0] ?? null,
    country: row.country,
    claimed_at: iso(row.claimed_at),
    redeemed_at: row.redeemed_at === null ? null : iso(row.redeemed_at),
    channel: row.channel,
  };
}
