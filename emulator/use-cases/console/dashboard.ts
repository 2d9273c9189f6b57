/**
 * What the dashboard's page shows of a promotion, read as it is now: its overview, every
 * promotion, the latest interactions, its known-outcome packs, the webhook sinks, the clock and
 * the emulator's addresses. A form that shows the page again reads it once its action is done.
 */
import type { Context } from '../../context.js';
import { latestInteractions } from '../../store/interaction-reads.js';
import { knownOutcomePacks } from '../../store/known-packs.js';
import { loadCampaign } from '../../store/promotions.js';
import { listSinks } from '../../store/sinks.js';
import { type Refused, isRefused, refused } from '../../wire-contract.js';
import { logRows, overview, promotionSummaries } from './reads.js';

/** Rows of the interaction log the page shows; its live script keeps to the same number. */
export const LOG_SHOWN = 10;

export function dashboardRead(ctx: Context, promotionId: number) {
  return {
    data: overview(ctx, promotionId), promotions: promotionSummaries(ctx), log: logRows(ctx, latestInteractions(ctx.db, LOG_SHOWN)),
    packs: knownOutcomePacks(ctx.db, ctx.seed, loadCampaign(ctx.db, promotionId)),
    sinks: listSinks(ctx.db), clock: ctx.clock.state(),
    urls: { public: ctx.config.baseUrl, local: ctx.config.localUrl ?? ctx.config.baseUrl },
  };
}

export type DashboardRead = ReturnType<typeof dashboardRead>;

/** An action's refusal with the page to show it on (a refused action changed nothing). */
export type RefusedOnPage<Reason> = Refused<{ reason: Reason; page: DashboardRead }>;

/** A form's action whose answer is the page: its outcome, with the page as the action left it. */
export function withPage<Result extends object, Reason>(ctx: Context, promotionId: number, outcome: Result | Refused<Reason>): { result: Result; page: DashboardRead } | RefusedOnPage<Reason> {
  const page = dashboardRead(ctx, promotionId);
  return isRefused(outcome) ? refused({ reason: outcome.refused, page }) : { result: outcome, page };
}

/** A form's action that goes back to the page once done: the page is read for its refusal only. */
export function pageIfRefused<Result extends object, Reason>(ctx: Context, promotionId: number, outcome: Result | Refused<Reason>): Result | RefusedOnPage<Reason> {
  return isRefused(outcome) ? refused({ reason: outcome.refused, page: dashboardRead(ctx, promotionId) }) : outcome;
}
