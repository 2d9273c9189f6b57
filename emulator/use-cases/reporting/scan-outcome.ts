/**
 * The scan outcome, the one serializer behind the scan read, the scan list, a collector's recent
 * scans and the `scan.processed` payload, so one parser serves them all. @see spec §2.7, §6
 *
 * `eligibility` has an element for the activation (promotion) the pack's SKU enters when it applied
 * to the scan, as the admission rule (domain/admission.ts) judges it at the scan's time and country:
 * - the pack was entered by this scan's collector: `won` (the prize, whatever its delivery state)
 *   or `lost`, with `entry_id` and `reward` (null when lost);
 * - open, no entry (yet): `not_signed_in` for an anonymous scan, `needs_terms` for a signed-in one
 *   (terms not accepted);
 * - the pack was entered by someone else, or the promotion did not apply: no element, so no other
 *   collector's result is disclosed.
 * An anonymous scan has `collector: null` (the public reference: "present if signed in").
 *
 * A place or device the service does not know is written as the empty string: the contract types
 * them as strings on every scan, so null would break a client typed by it and a missing field one
 * that expects the field, while "" keeps both and matches no country code (a sentinel such as `ZZ`
 * would read as one).
 */
import { admit } from '../../domain/admission.js';
import type { Db } from '../../store/db.js';
import { type Prize, type Promotion, brandPromotionIds, getPromotion, listPrizes } from '../../store/promotions.js';
import type { ScanRow } from '../../store/scan-reads.js';
import { type PackEntry, entriesOnPacks } from '../../store/entries.js';

export interface Activation {
  promotion: Promotion;
  prizes: Map<number, Prize>;
}

export function brandActivations(db: Db, brandId: number): Activation[] {
  return brandPromotionIds(db, brandId).map((id) => ({ promotion: getPromotion(db, id), prizes: new Map(listPrizes(db, id).map((prize) => [prize.id, prize])) }));
}

export function activationJson(promotion: Promotion) {
  return { id: promotion.id, name: promotion.content.name, activation_type: promotion.content.mechanic as string };
}

export function rewardJson(prize: Prize, awardedName: string | null) {
  return { id: prize.id, name: awardedName ?? prize.name, reward_type: prize.reward_type, tier: prize.tier, face_value: prize.face_value };
}

const UNKNOWN = '';

type Outcome = 'won' | 'lost' | 'needs_terms' | 'not_signed_in';

interface EligibilityItem {
  activation: ReturnType<typeof activationJson>;
  outcome: Outcome;
  entry_id: number | null;
  reward: ReturnType<typeof rewardJson> | null;
}

export interface ScanOutcome {
  scan: {
    id: number;
    unit: { id: number; code: string };
    sku: { id: number; name: string; prefix: string };
    batch_id: number;
    country: string;
    city: string;
    device_type: string;
    scanned_at: string;
  };
  collector: { id: number; identified: boolean } | null;
  eligibility: EligibilityItem[];
}

/** Outcomes of scans of one brand, with one query for the entries on all their packs. */
export function scanOutcomes(db: Db, brandId: number, rows: ScanRow[]): ScanOutcome[] {
  if (rows.length === 0) return [];
  const activations = new Map(brandActivations(db, brandId).map((activation) => [activation.promotion.id, activation]));
  const entries = new Map(
    entriesOnPacks(db, [...activations.keys()], [...new Set(rows.map((row) => row.unit_id))]).map((entry) => [`${entry.promotion_id}:${entry.unit_id}`, entry]),
  );
  return rows.map((row) => ({
    scan: {
      id: row.id,
      unit: { id: row.unit_id, code: row.unit_code },
      sku: { id: row.sku_id, name: row.sku_name, prefix: row.sku_prefix },
      batch_id: row.batch_id,
      country: row.country ?? UNKNOWN,
      city: row.city ?? UNKNOWN,
      device_type: row.device_type ?? UNKNOWN,
      scanned_at: new Date(row.scanned_at).toISOString(),
    },
    collector: row.collector_id === null ? null : { id: row.collector_id, identified: true },
    eligibility: eligibilityOf(row.promotion_id === null ? undefined : activations.get(row.promotion_id), row, entries.get(`${row.promotion_id}:${row.unit_id}`)),
  }));
}

export function scanOutcome(db: Db, row: ScanRow): ScanOutcome {
  return scanOutcomes(db, row.brand_id, [row])[0]!;
}

function eligibilityOf(applies: Activation | undefined, scan: ScanRow, entry: PackEntry | undefined): EligibilityItem[] {
  if (!applies) return [];
  const { promotion, prizes } = applies;
  // The admission rule at the scan's time and country; routing pauses hand scans to the hosted page, which still enters.
  const admission = admit({ promotion, channel: 'service', now: scan.scanned_at, collectorId: scan.collector_id, country: scan.country, existing: entry });
  const activation = activationJson(promotion);
  if (admission.kind === 'entered') {
    const prize = entry!.prize_id === null ? undefined : prizes.get(entry!.prize_id);
    const won = entry!.state !== 'lost' && prize !== undefined;
    return [{ activation, outcome: won ? 'won' : 'lost', entry_id: entry!.id, reward: won ? rewardJson(prize, entry!.prize_name) : null }];
  }
  if (admission.kind !== 'open') return [];
  return [{ activation, outcome: scan.collector_id === null ? 'not_signed_in' : 'needs_terms', entry_id: null, reward: null }];
}
