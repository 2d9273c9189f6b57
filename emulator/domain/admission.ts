/**
 * The admission rule: may this collector enter this pack now. It lives here only, in one order:
 * availability, the pack's existing entry, country, consent; the draw follows an open admission.
 * The agency's entry, the session read's eligibility, the hosted page, the reporting API's scan
 * outcome and the seeded history all ask this module, so they cannot disagree.
 * @see spec §4.1 rules 2, 4 and 5, §4.2, §2.4 to §2.6
 */
import type { Terms } from '../fixture.js';
import { type ConsentInput, consentProblem } from './consent.js';
import { termsFor } from './terms.js';

export type Closed = { status: 409 | 410; reason: 'not_live' | 'not_started' | 'ended' | 'paused' };
export type Availability = { available: true } | ({ available: false } & Closed);

/**
 * Who runs the entry: an agency's experience closes while the brand pauses routing to it; the
 * service's own hosted page (and the history of what scans applied to) does not.
 */
export type Channel = 'agency' | 'service';

export interface AdmittedPromotion {
  content: {
    status: 'live' | 'draft';
    dates: { start: string; end: string };
    /** Countries allowed to enter; empty means unrestricted. */
    countries: string[];
    terms: { default: Terms; by_country: Record<string, Terms> };
  };
  routing_paused: boolean;
}

export interface AdmissionInput {
  promotion: AdmittedPromotion;
  channel: Channel;
  now: number;
  /** Who asks (null: an anonymous scan) and the country of the journey. */
  collectorId: number | null;
  country: string | null;
  /** The pack's production entry in this promotion, if any. */
  existing: { collector_id: number | null } | undefined;
}

export type Admission =
  /** May enter: the draw runs once consent satisfies these terms. */
  | { kind: 'open'; terms: Terms }
  /** This collector already entered the pack: the entry is returned as it is, never drawn again. */
  | { kind: 'entered' }
  /** Not live, not started, ended, or (for an agency) paused. */
  | { kind: 'closed'; closed: Closed }
  /** Another collector entered the pack; nothing of their result is disclosed. */
  | { kind: 'already_entered' }
  /** A restricted campaign and a missing or disallowed country. */
  | { kind: 'ineligible'; reason: 'country_missing' | 'country_restricted' };

export type EntryAdmission = Admission | { kind: 'consent_required'; terms: Terms; problem: string };

/** Open, or why not: availability, then the pack's entry, then country. */
export function admit(input: AdmissionInput): Admission {
  const { promotion } = input;
  const open = availability(promotion.content, input.channel === 'agency' && promotion.routing_paused, input.now);
  if (!open.available) return { kind: 'closed', closed: { status: open.status, reason: open.reason } };
  if (input.existing) return input.existing.collector_id === input.collectorId && input.collectorId !== null ? { kind: 'entered' } : { kind: 'already_entered' };
  const refusal = countryRefusal(promotion.content.countries, input.country);
  if (refusal) return { kind: 'ineligible', reason: refusal };
  return { kind: 'open', terms: termsFor(promotion, input.country) };
}

/** The whole rule for an entry: `admit`, then the consent it carries. */
export function admitEntry(input: AdmissionInput, consent: ConsentInput | undefined): EntryAdmission {
  const admission = admit(input);
  if (admission.kind !== 'open') return admission;
  const problem = consentProblem(admission.terms, consent);
  return problem ? { kind: 'consent_required', terms: admission.terms, problem } : admission;
}

/** Whether the promotion takes entries now: live status, within its dates, and not paused. */
export function availability(promotion: Pick<AdmittedPromotion['content'], 'status' | 'dates'>, paused: boolean, now: number): Availability {
  if (now > Date.parse(promotion.dates.end)) return { available: false, status: 410, reason: 'ended' };
  if (promotion.status !== 'live') return { available: false, status: 409, reason: 'not_live' };
  if (now < Date.parse(promotion.dates.start)) return { available: false, status: 409, reason: 'not_started' };
  if (paused) return { available: false, status: 409, reason: 'paused' };
  return { available: true };
}

/** A restricted campaign (non-empty country list) admits only those countries; a missing country is refused. */
function countryRefusal(countries: string[], country: string | null): 'country_missing' | 'country_restricted' | undefined {
  if (countries.length === 0) return undefined;
  if (!country) return 'country_missing';
  return countries.includes(country) ? undefined : 'country_restricted';
}
