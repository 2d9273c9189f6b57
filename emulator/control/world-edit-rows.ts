/**
 * The control plane's rows for the world's edits the harness makes while journeys run
 * (use-cases/control/world-edits.ts): `GET`/`POST /terms` (the terms read, and edited mid-journey;
 * `POST /faults/clear` puts them back), `POST /deliveries/settle` and `GET /packs` (the packs not
 * entered yet with the outcome of their seeded draw, and `outcomes`: every outcome that draw can
 * give). Terms and packs are the default promotion's, or those of the promotion
 * `?promotion=ID|slug` names.
 */
import { type EndpointTable, anyone } from '../endpoints.js';
import { z } from 'zod';
import type { Context } from '../context.js';
import { promotionParam } from '../console/promotion-param.js';
import { ControlError } from './errors.js';
import { WholeText, validate } from '../validation.js';
import { TermsSchema } from '../fixture.js';
import { getPromotion } from '../store/promotions.js';
import type { ControlContext } from '../use-cases/control/state.js';
import { editTerms, packsToEnter, settleDelivery } from '../use-cases/control/world-edits.js';

const TermsBody = z.strictObject({
  /** A country of `terms.by_country`, or null for the default terms. */
  country: z.string().regex(/^[A-Z]{2}$/).nullable(),
  terms: TermsSchema.partial().extend({ minimum_age: z.number().int().positive().nullable().optional() }),
});
const PacksQuery = z.strictObject({ per_outcome: WholeText(1, 1000).default(100), promotion: z.string().optional() });
const SettleBody = z.strictObject({ pack: z.string().min(1).max(64), outcome: z.enum(['delivered', 'failed']).default('delivered') });

export function worldEditRows(endpoint: EndpointTable<ControlContext>, ctx: Context): void {
  endpoint({
    method: 'get', path: '/terms', caller: anyone,
    input: (req) => promotionParam(ctx, req.query),
    run: (on, _caller, promotionId) => getPromotion(on.db, promotionId).content,
    answer: (content) => ({ status: 200, body: { countries: content.countries, default: content.terms.default, by_country: content.terms.by_country } }),
  });
  endpoint({
    method: 'post', path: '/terms', caller: (req) => promotionParam(ctx, req.query),
    input: (req) => validate(TermsBody, req.body, { hint: 'Send {"country": "CH" | null, "terms": {"version": "...", "text": "..."}}.' }),
    run: (on, promotionId, edit) => editTerms(on, on.controlState.originalTerms, promotionId, edit),
    refusal: (_reason, _caller, { country }) => new ControlError('not_found', { message: `The promotion has no terms for ${country}; edit the default terms with "country": null.` }),
    answer: (body) => ({ status: 200, body }),
  });
  endpoint({
    method: 'post', path: '/deliveries/settle', caller: anyone,
    input: (req) => validate(SettleBody, req.body, { hint: 'Send {"pack": "<code>", "outcome": "delivered" | "failed"}.' }),
    run: (on, _caller, settle) => settleDelivery(on, settle),
    refusal: (_reason, _caller, { pack }) => new ControlError('not_found', { message: `No pending delivery for pack ${pack}.` }),
    answer: ({ entryId, outcome }) => ({ status: 200, body: { entry_id: entryId, settles_as: outcome } }),
  });
  endpoint({
    method: 'get', path: '/packs', caller: anyone,
    input: (req) => {
      const { per_outcome: perOutcome } = validate(PacksQuery, req.query, { hint: 'per_outcome is a whole number from 1 to 1000.' });
      return { promotionId: promotionParam(ctx, req.query), perOutcome };
    },
    run: (on, _caller, { promotionId, perOutcome }) => packsToEnter(on, promotionId, perOutcome),
    answer: ({ packs, outcomes }) => ({ status: 200, body: { data: packs, outcomes } }),
  });
}
