/**
 * What an entry shows outside the service, to the agency (experience/serialize.ts) and on the
 * collector's pages (journey/): its prize's codes and redemption link only once the prize is delivered.
 */
import type { Entry } from '../store/entries.js';
import type { Prize } from '../store/promotions.js';

/** The collector's Rewards wallet, where every won entry is shown for good: the journey serves it, the campaign read names it. */
export const REWARDS_PATH = '/rewards';

/** The codes the entry shows: none until its prize is delivered. */
export function shownCodes(entry: Entry): string[] {
  return entry.delivery_state === 'delivered' ? (JSON.parse(entry.codes) as string[]) : [];
}

/** The redemption link the entry shows: none until its prize is delivered. */
export function shownRedemptionUrl(entry: Entry): string | null {
  return entry.delivery_state === 'delivered' ? entry.redemption_url : null;
}

/** An entry as the collector's pages show it. */
export interface ShownEntry {
  state: Entry['state'];
  /** The prize won, as named when it was won; null for a loss. */
  prizeName: string | null;
  codes: string[];
  redemptionUrl: string | null;
  createdAt: number;
}

export function shownEntry(entry: Entry, prize: Prize | undefined): ShownEntry {
  return { state: entry.state, prizeName: prize ? (entry.prize_name ?? prize.name) : null, codes: shownCodes(entry), redemptionUrl: shownRedemptionUrl(entry), createdAt: entry.created_at };
}
