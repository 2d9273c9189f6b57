/**
 * The service's own entry, run by the hosted fallback page, which opens to a collector who scanned
 * a pack whose promotion stays with the service: the admission rule of every entry
 * (domain/admission.ts) on the service's channel, where the brand pausing *agency routing* does
 * not close the service's own page; then the same draw as an agency's production entry.
 * @see spec §1 rules (hosted page), §2.4 to §2.6, §4.1 rules 2 and 5
 */
import type { Context } from '../../context.js';
import type { Admission, Closed, EntryAdmission } from '../../domain/admission.js';
import type { ConsentInput } from '../../domain/consent.js';
import type { Terms } from '../../fixture.js';
import type { Collector } from '../../store/collectors.js';
import type { Entry } from '../../store/entries.js';
import { type Campaign, loadCampaign } from '../../store/promotions.js';
import { serviceKeyId } from '../../store/keys.js';
import { createSession } from '../../store/sessions.js';
import { type ScannedUnit, findUnitByCode, hasScanned } from '../../store/units.js';
import { type PackEntrant, type PackOutcome, enterPack, packAdmission } from '../pack-entry.js';
import type { HostedReason, TesterReason } from './routing.js';
import { routeFor } from './scan.js';

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

/** Why the hosted page does not open for this caller: signed out, no scan of this pack, or the agency's promotion. */
export type NotOpen = 'signed_out' | 'scan_first' | 'agency';

/** An entrant the hosted page opens to, with why the pack stays with the service. */
export interface HostedPageEntrant extends HostedEntrant {
  reasons: Array<HostedReason | TesterReason>;
}

/** The collector, pack and promotion of a hosted page; it opens only after this collector scanned the pack. */
export function hostedEntrant(ctx: Context, collector: Collector | undefined, code: string): HostedPageEntrant | NotOpen {
  if (!collector) return 'signed_out';
  const unit = findUnitByCode(ctx.db, code);
  if (!unit || unit.recalled || !hasScanned(ctx.db, collector.id, unit.id)) return 'scan_first';
  if (unit.promotion_id === null) return 'scan_first';
  const campaign = loadCampaign(ctx.db, unit.promotion_id);
  const route = routeFor(ctx, campaign.promotion, unit, collector);
  if (route.to === 'agency') return 'agency';
  return { campaign, unit, collector, reasons: route.reasons };
}

export function hostedState(ctx: Context, entrant: HostedEntrant): HostedState {
  return stateOf(packAdmission(ctx, packEntrant(entrant))) as HostedState;
}

/** The draw's entry belongs to a session of the service's own key, opened only when the draw runs. */
export function enterHosted(ctx: Context, entrant: HostedEntrant, consent: ConsentInput): HostedOutcome {
  const { campaign, collector, unit } = entrant;
  const openSession = () => {
    const now = ctx.clock.now();
    return createSession(ctx.db, ctx.seed, {
      keyId: serviceKeyId(ctx.db, campaign.promotion.id, now), promotionId: campaign.promotion.id, sandbox: false,
      collectorId: collector.id, unitId: unit.id, country: collector.country, now,
    }).session.id;
  };
  return stateOf(enterPack(ctx, packEntrant(entrant), consent, openSession));
}

function packEntrant({ campaign, collector, unit }: HostedEntrant): PackEntrant {
  return { campaign, channel: 'service', collectorId: collector.id, unitId: unit.id, country: collector.country };
}

/** The pack's entry is the entrant's when it was found (`entered`) or drawn now (`open`). */
function stateOf({ admission, entry }: PackOutcome<Admission | EntryAdmission>): HostedOutcome {
  if (entry || admission.kind === 'entered') return { kind: 'entered', entry: entry! };
  switch (admission.kind) {
    case 'already_entered':
      return { kind: 'already_entered' };
    case 'closed':
      return { kind: 'unavailable', closed: admission.closed };
    default:
      return admission;
  }
}
