/**
 * The service's own entry, run by the hosted fallback page: the admission rule of every entry
 * (domain/admission.ts) on the service's channel, where the brand pausing *agency routing* does
 * not close the service's own page; then the same draw as an agency's production entry.
 * @see spec §1 rules (hosted page), §2.4 to §2.6, §4.1 rules 2 and 5
 */
import type { Context } from '../context.js';
import { announce } from '../events.js';
import { type Admission, type AdmissionInput, type Closed, type EntryAdmission, admit, admitEntry } from '../domain/admission.js';
import type { ConsentInput } from '../domain/consent.js';
import type { Terms } from '../fixture.js';
import type { Collector } from '../store/collectors.js';
import { type Entry, findProductionEntryForPack } from '../store/entries.js';
import { drawEntry } from '../store/outcomes.js';
import type { Campaign } from '../store/promotions.js';
import { serviceKeyId } from '../store/keys.js';
import { createSession } from '../store/sessions.js';
import type { ScannedUnit } from '../store/units.js';

/** What the hosted page shows before or instead of the form. */
export type HostedState =
  | { kind: 'open'; terms: Terms }
  | { kind: 'entered'; entry: Entry }
  | { kind: 'already_entered' }
  | { kind: 'ineligible' }
  | { kind: 'unavailable'; closed: Closed };

export type HostedOutcome = HostedState | { kind: 'consent_required'; terms: Terms; problem: string };

export interface HostedEntrant {
  campaign: Campaign;
  collector: Collector;
  unit: ScannedUnit;
}

export function hostedState(ctx: Context, entrant: HostedEntrant): HostedState {
  const existing = packEntry(ctx, entrant);
  return stateOf(admit(admissionInput(ctx, entrant, existing)), existing) as HostedState;
}

export function enterHosted(ctx: Context, entrant: HostedEntrant, consent: ConsentInput): HostedOutcome {
  const { outcome, created } = ctx.db.transaction(() => draw(ctx, entrant, consent)).immediate();
  if (created) announce(ctx, 'entry.created', { entryId: created.id });
  return outcome;
}

function draw(ctx: Context, entrant: HostedEntrant, consent: ConsentInput): { outcome: HostedOutcome; created?: Entry } {
  const existing = packEntry(ctx, entrant);
  const admission = admitEntry(admissionInput(ctx, entrant, existing), consent);
  if (admission.kind !== 'open') return { outcome: stateOf(admission, existing) };

  const { campaign, collector, unit } = entrant;
  const now = ctx.clock.now();
  const { session } = createSession(ctx.db, ctx.seed, {
    keyId: serviceKeyId(ctx.db, campaign.promotion.id, now), promotionId: campaign.promotion.id, sandbox: false,
    collectorId: collector.id, unitId: unit.id, country: collector.country, now,
  });
  const entry = drawEntry({ db: ctx.db, seed: ctx.seed, now }, {
    campaign, sessionId: session.id, sandbox: false, collectorId: collector.id, unitId: unit.id, country: collector.country, termsVersion: consent.terms_version,
  });
  return { outcome: { kind: 'entered', entry }, created: entry };
}

function packEntry(ctx: Context, { campaign, unit }: HostedEntrant): Entry | undefined {
  return findProductionEntryForPack(ctx.db, campaign.promotion.id, unit.id);
}

function admissionInput(ctx: Context, { campaign, collector }: HostedEntrant, existing: Entry | undefined): AdmissionInput {
  return { promotion: campaign.promotion, channel: 'service', now: ctx.clock.now(), collectorId: collector.id, country: collector.country, existing };
}

function stateOf(admission: Admission | EntryAdmission, existing: Entry | undefined): HostedOutcome {
  switch (admission.kind) {
    case 'entered':
      return { kind: 'entered', entry: existing! };
    case 'taken':
      return { kind: 'already_entered' };
    case 'closed':
      return { kind: 'unavailable', closed: admission.closed };
    default:
      return admission;
  }
}
