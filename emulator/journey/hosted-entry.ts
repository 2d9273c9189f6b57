/**
 * The service's own entry, run by the hosted fallback page: the same domain rules as an agency's
 * production entry (availability, one entry per pack, country, consent, draw, stock, budget),
 * except that the brand pausing *agency routing* does not close the service's own page.
 * @see spec §1 rules (hosted page), §2.4 to §2.6, §4.1 rules 2 and 5
 */
import type { Context } from '../context.js';
import { type ConsentInput, consentProblem } from '../domain/consent.js';
import { type Availability, availability, countryRefusal } from '../domain/eligibility.js';
import { drawEntry } from '../experience/draw-entry.js';
import { termsFor } from '../experience/serialize.js';
import type { Terms } from '../fixture.js';
import type { Collector } from '../store/collectors.js';
import { type Entry, findProductionEntryForPack } from '../store/entries.js';
import type { Promotion } from '../store/promotions.js';
import { serviceKeyId } from '../store/service-keys.js';
import { createSession } from '../store/sessions.js';
import type { ScannedUnit } from '../store/units.js';

export type Closed = Exclude<Availability, { available: true }>;

/** What the hosted page shows before or instead of the form. */
export type HostedState =
  | { kind: 'open'; terms: Terms }
  | { kind: 'entered'; entry: Entry }
  | { kind: 'already_entered' }
  | { kind: 'ineligible' }
  | { kind: 'unavailable'; closed: Closed };

export type HostedOutcome = HostedState | { kind: 'consent_required'; terms: Terms; problem: string };

export interface HostedEntrant {
  promotion: Promotion;
  collector: Collector;
  unit: ScannedUnit;
}

export function hostedState(ctx: Context, { promotion, collector, unit }: HostedEntrant): HostedState {
  const open = availability({ ...promotion.content, routingPaused: false }, ctx.clock.now());
  // One entry per pack: the same collector sees it again, anyone else learns nothing. @see spec §2.5, §4.1 rule 5
  const existing = findProductionEntryForPack(ctx.db, promotion.id, unit.id);
  if (existing) return existing.collector_id === collector.id ? { kind: 'entered', entry: existing } : { kind: 'already_entered' };
  if (!open.available) return { kind: 'unavailable', closed: open };
  if (countryRefusal(promotion.content.countries, collector.country)) return { kind: 'ineligible' };
  return { kind: 'open', terms: termsFor(promotion, collector.country) };
}

export function enterHosted(ctx: Context, entrant: HostedEntrant, consent: ConsentInput): HostedOutcome {
  const { outcome, created } = ctx.db.transaction(() => draw(ctx, entrant, consent)).immediate();
  if (created) ctx.events.emit('entry.created', { entryId: created.id });
  return outcome;
}

function draw(ctx: Context, entrant: HostedEntrant, consent: ConsentInput): { outcome: HostedOutcome; created?: Entry } {
  const state = hostedState(ctx, entrant);
  if (state.kind !== 'open') return { outcome: state };
  const problem = consentProblem(state.terms, consent);
  if (problem) return { outcome: { kind: 'consent_required', terms: state.terms, problem } };

  const { promotion, collector, unit } = entrant;
  const now = ctx.clock.now();
  const { session } = createSession(ctx.db, ctx.seed, {
    keyId: serviceKeyId(ctx.db, promotion.id, now), promotionId: promotion.id, sandbox: false,
    collectorId: collector.id, unitId: unit.id, country: collector.country, now,
  });
  const entry = drawEntry(ctx, {
    promotion, sessionId: session.id, sandbox: false, collectorId: collector.id, unitId: unit.id, country: collector.country, termsVersion: consent.terms_version,
  });
  return { outcome: { kind: 'entered', entry }, created: entry };
}
