/**
 * A pack's address opened: an unknown or recalled pack is said so first, before sign-in and any
 * hand-off; a signed-in collector's scan is recorded, then handed off to the agency or kept on the
 * service's hosted page. @see spec §1 rules, §4.3 steps 1 and 2
 */
import type { Context } from '../../context.js';
import { announce } from '../../events.js';
import type { Collector } from '../../store/collectors.js';
import { hasActiveKey } from '../../store/keys.js';
import { type Promotion, getPromotion } from '../../store/promotions.js';
import { issueRequestToken } from '../../store/request-tokens.js';
import { insertScan } from '../../store/scans.js';
import { type ScannedUnit, findUnitByCode } from '../../store/units.js';
import { type Refused, refused } from '../../wire-contract.js';
import { deviceType } from './device.js';
import { type Route, type HostedReason, type TesterReason, agencyRoute, testerReason } from './routing.js';

export type Handoff = { to: 'agency'; location: string } | { to: 'hosted'; reasons: Array<HostedReason | TesterReason> } | { to: 'no_promotion' };

/** Why a pack's address hands nothing off: no such pack, a recalled product, or no one signed in (the pack's code to come back to). */
export type PackRefusal = { kind: 'unknown_pack' } | { kind: 'recalled'; sku: string } | { kind: 'signed_out'; code: string };

/** Opening a pack's address: `scan` false (a HEAD: a link checker, a preview) records nothing and issues no request token. */
export interface PackVisit {
  /** The code as the address gives it: spaces around it and its case do not count. */
  code: string;
  scan: boolean;
  userAgent: string | undefined;
}

/** The pack's code and, for a scan, its hand-off. */
export function visitPack(ctx: Context, collector: Collector | undefined, visit: PackVisit): { code: string; handoff?: Handoff } | Refused<PackRefusal> {
  const unit = findUnitByCode(ctx.db, visit.code.trim().toUpperCase());
  if (!unit) return refused({ kind: 'unknown_pack' });
  // Before sign-in and before any hand-off. @see spec §4.3 step 1
  if (unit.recalled) return refused({ kind: 'recalled', sku: unit.sku_name });
  if (!collector) return refused({ kind: 'signed_out', code: unit.code });
  if (!visit.scan) return { code: unit.code };
  return { code: unit.code, handoff: scanPack(ctx, unit, collector, visit.userAgent) };
}

export function scanPack(ctx: Context, unit: ScannedUnit, collector: Collector, userAgent: string | undefined): Handoff {
  const now = ctx.clock.now();
  const tester = testerReason(unit.kind, collector.tester === 1);
  const { scanId, handoff } = ctx.db.transaction(() => {
    const scanId = insertScan(ctx.db, {
      unitId: unit.id, brandId: unit.brand_id, collectorId: collector.id, tester: tester !== undefined,
      country: collector.country, city: collector.city, deviceType: deviceType(userAgent), scannedAt: now,
    });
    return { scanId, handoff: routeScan(ctx, unit, collector, now) };
  })();
  announce(ctx, 'scan.recorded', { scanId });
  return handoff;
}

/** Where the promotion's production scans go now. */
export function promotionRoute(ctx: Context, promotion: Promotion): Route {
  const now = ctx.clock.now();
  return agencyRoute(promotion, { now, activeProductionKey: hasActiveKey(ctx.db, promotion.id, 'production', now) });
}

/** The routing decision for this pack and collector, without recording anything. */
export function routeFor(ctx: Context, promotion: Promotion, unit: ScannedUnit, collector: Collector): Route | { to: 'hosted'; reasons: [TesterReason] } {
  const tester = testerReason(unit.kind, collector.tester === 1);
  return tester ? { to: 'hosted', reasons: [tester] } : promotionRoute(ctx, promotion);
}

function routeScan(ctx: Context, unit: ScannedUnit, collector: Collector, now: number): Handoff {
  if (unit.promotion_id === null) return { to: 'no_promotion' };
  const promotion = getPromotion(ctx.db, unit.promotion_id);
  const route = routeFor(ctx, promotion, unit, collector);
  if (route.to === 'hosted') return route;
  // Bound to this collector, pack and callback; the journey's country travels with it. @see spec §4.3 step 2
  const token = issueRequestToken(ctx.db, ctx.seed, {
    promotionId: promotion.id, collectorId: collector.id, unitId: unit.id, country: collector.country, callbackUrl: route.callback, now,
  });
  return { to: 'agency', location: `${route.callback}?service_request=${encodeURIComponent(token)}` };
}
