/**
 * Where a scan goes: the agency's production callback, or the service's own hosted page.
 * @see spec §1 rules, §4.3 step 2
 */
import { availability } from '../../domain/admission.js';
import type { Promotion } from '../../store/promotions.js';

/** Why scans of a promotion go to the hosted page instead of the agency. */
export type HostedReason = 'not_approved' | 'not_live' | 'routing_paused' | 'no_production_key' | 'no_production_callback';

/** Why one pack or collector always stays on the hosted page. */
export type TesterReason = 'test_pack' | 'preview_pack' | 'tester_account';

export const HOSTED_REASON_TEXT: Record<HostedReason | TesterReason, string> = {
  not_approved: 'the brand has not approved the agency experience',
  not_live: 'the promotion is not live',
  routing_paused: 'the brand paused routing to the agency',
  no_production_key: 'no production key is active',
  no_production_callback: 'no production callback URL is set',
  test_pack: 'test packs stay in the tester flow',
  preview_pack: 'private preview packs use the hosted page',
  tester_account: 'tester accounts stay in the tester flow',
};

/** Live: status live and within its dates; routing is judged separately. */
export function isLive(promotion: Promotion, now: number): boolean {
  return availability(promotion.content, false, now).available;
}

export type Route = { to: 'agency'; callback: string } | { to: 'hosted'; reasons: HostedReason[] };

/** Approved, live, not paused, an active production key and a production callback: all five. */
export function agencyRoute(promotion: Promotion, state: { now: number; activeProductionKey: boolean }): Route {
  const reasons: HostedReason[] = [];
  if (promotion.approved_at === null) reasons.push('not_approved');
  if (!isLive(promotion, state.now)) reasons.push('not_live');
  if (promotion.routing_paused) reasons.push('routing_paused');
  if (!state.activeProductionKey) reasons.push('no_production_key');
  if (!promotion.production_callback) reasons.push('no_production_callback');
  return reasons.length === 0 ? { to: 'agency', callback: promotion.production_callback! } : { to: 'hosted', reasons };
}

/** Test codes and testers never reach a production agency session. @see spec §1 rules */
export function testerReason(unitKind: 'production' | 'test' | 'preview', testerAccount: boolean): TesterReason | undefined {
  if (unitKind === 'test') return 'test_pack';
  if (unitKind === 'preview') return 'preview_pack';
  return testerAccount ? 'tester_account' : undefined;
}
