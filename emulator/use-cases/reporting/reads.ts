/**
 * The reporting API's reads of one brand: its scans, its audience and its redemptions, each scoped
 * to the brand the caller's company owns (the route's caller). @see spec §4.4
 */
import type { Context } from '../../context.js';
import { RECENT_SCANS } from '../../domain/limits.js';
import { type AudienceMember, findAudienceMember, listAudience } from '../../store/audience.js';
import type { Brand } from '../../store/promotions.js';
import { type RedemptionPage, type RedemptionRow, listRedemptions } from '../../store/redemptions.js';
import { type ScanPage, findProductionScan, listProductionScans, recentScansOfCollector } from '../../store/scan-reads.js';
import { type Refused, refused } from '../../wire-contract.js';
import { type Activation, type ScanOutcome, brandActivations, scanOutcome, scanOutcomes } from './scan-outcome.js';

/** What the reporting API refuses to show: nothing of another company's, nor what does not exist, and it says no more. */
export type NotFound = 'not_found';

export function listScans(ctx: Context, brand: Brand, page: ScanPage): ScanOutcome[] {
  return scanOutcomes(ctx.db, brand.id, listProductionScans(ctx.db, brand.id, page));
}

export function readScan(ctx: Context, brand: Brand, id: number): ScanOutcome | Refused<NotFound> {
  const scan = findProductionScan(ctx.db, brand.id, id);
  return scan ? scanOutcome(ctx.db, scan) : refused('not_found');
}

export function listCollectors(ctx: Context, brand: Brand, page: { limit: number; offset: number }): AudienceMember[] {
  return listAudience(ctx.db, brand.id, page);
}

/** A collector of the brand's audience, with their most recent scans of its packs. */
export function readCollector(ctx: Context, brand: Brand, id: number): { member: AudienceMember; scans: ScanOutcome[] } | Refused<NotFound> {
  const member = findAudienceMember(ctx.db, brand.id, id);
  if (!member) return refused('not_found');
  return { member, scans: scanOutcomes(ctx.db, brand.id, recentScansOfCollector(ctx.db, brand.id, member.id, RECENT_SCANS)) };
}

/** Each redemption with the activation (the brand's promotion) its prize came from: the store reads only the brand's, so each has one. */
export function listBrandRedemptions(ctx: Context, brand: Brand, page: RedemptionPage): Array<{ row: RedemptionRow; activation: Activation }> {
  const activations = new Map(brandActivations(ctx.db, brand.id).map((activation) => [activation.promotion.id, activation]));
  return listRedemptions(ctx.db, brand.id, page, ctx.clock.now()).flatMap((row) => {
    const activation = activations.get(row.promotion_id);
    return activation ? [{ row, activation }] : [];
  });
}
