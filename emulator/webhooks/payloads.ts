/**
 * `data` of the events beyond `scan.processed` (which is the scan outcome, spec §2.7). Their
 * payloads are not shown in the spec; these reuse the scan outcome's activation and reward shapes.
 */
import type { Db } from '../store/db.js';
import { getPromotion, listPrizes } from '../store/promotions.js';
import type { EnteredPack } from '../store/scan-reads.js';
import { activationJson, rewardJson } from '../reporting/scan-outcome.js';

/** `activation.entered`: a production entry, whoever ran it (agency or hosted page). */
export function activationEnteredData(db: Db, entry: EnteredPack) {
  const prize = listPrizes(db, entry.promotion_id).find((candidate) => candidate.id === entry.prize_id);
  const won = entry.state !== 'lost' && prize !== undefined;
  return {
    entry_id: entry.id,
    entered_at: new Date(entry.created_at).toISOString(),
    activation: activationJson(getPromotion(db, entry.promotion_id)),
    outcome: won ? 'won' : 'lost',
    delivery_state: entry.delivery_state,
    reward: won ? rewardJson(prize, entry.prize_name) : null,
    collector: entry.collector_id === null ? null : { id: entry.collector_id, identified: true },
    unit: { id: entry.unit_id, code: entry.unit_code },
    sku: { id: entry.sku_id, name: entry.sku_name, prefix: entry.sku_prefix },
    country: entry.country,
  };
}
