/**
 * `data` of the events beyond `scan.processed` (which is the scan outcome, spec §2.7) and the batch
 * events (the batch). Their payloads are not shown in the spec; these reuse the scan outcome's
 * activation and reward shapes. The schema documents the payload in the reporting API's OpenAPI
 * document, whose test checks real deliveries against it.
 */
import { z } from 'zod';
import { apiDocs } from '../api-docs.js';
import { ActivationSchema, RewardSchema } from '../reporting/responses.js';
import type { Db } from '../store/db.js';
import { getPromotion, listPrizes } from '../store/promotions.js';
import type { EnteredPack } from '../store/entries.js';
import { activationJson, rewardJson } from '../use-cases/reporting/scan-outcome.js';

const id = () => z.number().int().positive();

export const ActivationEnteredSchema = z
  .strictObject({
    entry_id: id(),
    entered_at: z.iso.datetime(),
    activation: ActivationSchema,
    outcome: z.enum(['won', 'lost']),
    delivery_state: z.enum(['none', 'processing', 'delivered', 'failed']).register(apiDocs, { description: 'Of the prize won: `processing` until it is delivered or fails.' }),
    reward: RewardSchema.nullable(),
    collector: z.strictObject({ id: id(), identified: z.boolean() }).nullable(),
    unit: z.strictObject({ id: id(), code: z.string() }),
    sku: z.strictObject({ id: id(), name: z.string(), prefix: z.string() }),
    country: z.string().nullable(),
  })
  .register(apiDocs, { id: 'ActivationEntered', description: 'A production entry, made through the agency or the hosted page.' });

/** `activation.entered`: a production entry, whoever ran it (agency or hosted page). */
export function activationEnteredData(db: Db, entry: EnteredPack): z.output<typeof ActivationEnteredSchema> {
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
    // A production entry is always on a pack: findProductionEntry joins its unit.
    unit: { id: entry.unit_id!, code: entry.unit_code },
    sku: { id: entry.sku_id, name: entry.sku_name, prefix: entry.sku_prefix },
    country: entry.country,
  };
}
