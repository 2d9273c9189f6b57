/**
 * Whether a promotion can be entered now, and from where. @see spec §4.1 rules 2 and 4, §4.2 (unavailable)
 */
export type Availability = { available: true } | { available: false; status: 409 | 410; reason: 'not_live' | 'not_started' | 'ended' | 'paused' };

export interface PromotionState {
  status: 'live' | 'draft';
  dates: { start: string; end: string };
  routingPaused: boolean;
}

export function availability(promotion: PromotionState, now: number): Availability {
  if (now > Date.parse(promotion.dates.end)) return { available: false, status: 410, reason: 'ended' };
  if (promotion.status !== 'live') return { available: false, status: 409, reason: 'not_live' };
  if (now < Date.parse(promotion.dates.start)) return { available: false, status: 409, reason: 'not_started' };
  if (promotion.routingPaused) return { available: false, status: 409, reason: 'paused' };
  return { available: true };
}

export const UNAVAILABLE_MESSAGES: Record<Exclude<Availability, { available: true }>['reason'], string> = {
  ended: 'The promotion has ended. Show an unavailable state and a route back to the Rewards page.',
  not_live: 'The promotion is not live. Show an unavailable state and a route back to the Rewards page.',
  not_started: 'The promotion has not started yet. Show an unavailable state and a route back to the Rewards page.',
  paused: 'The brand has paused the agency experience. Show an unavailable state and a route back to the Rewards page.',
};

/** A restricted campaign (non-empty country list) admits only those countries; a missing country is refused. */
export function countryRefusal(countries: string[], country: string | null): 'country_missing' | 'country_restricted' | undefined {
  if (countries.length === 0) return undefined;
  if (!country) return 'country_missing';
  return countries.includes(country) ? undefined : 'country_restricted';
}

export interface Eligibility {
  eligible: boolean;
  reason: 'country_missing' | 'country_restricted' | 'already_entered' | 'unavailable' | null;
  country: string | null;
}
