/**
 * A harness run leaves the brand's console as it found it. A run opens with what the promotion had
 * (its callback URLs, checklist and approval) and ends by putting that back, leaving no line in the
 * approval history: the run's own changes (the URLs it registers, the approval it gives) are not the
 * brand's acts. The open run is kept in this process, with a lease the harness renews: a run that
 * was killed before it ended is found by the next run, which puts its snapshot back first (the
 * harness knows its own marks). A restarted emulator has forgotten its open runs.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from '../context.js';
import { dropApprovalEventsAfter, lastApprovalEventId } from '../store/approvals.js';
import { type StoredCoverage, replaceCoverage, storedCoverage } from '../store/coverage.js';
import { defaultPromotionId, getPromotion, setApprovedAt, setCallbackUrls } from '../store/promotions.js';
import { type Refused, refused } from '../wire-contract.js';

/** A run that has not renewed its lease for this long is over, however it ended. */
export const LEASE_MS = 20_000;

/** Who runs the harness, as the harness says: enough for another run on the same machine to tell whether it is still alive. */
export interface RunHolder {
  pid: number;
  host: string;
}

interface OpenRun extends RunHolder {
  id: string;
  promotionId: number;
  startedAt: number;
  renewedAt: number;
  callbacks: { production: string | null; preview: string | null };
  approvedAt: number | null;
  coverage: StoredCoverage[];
  lastEvent: number;
}

/** What an open run answers about itself: `started_at` in wall-clock time, as processes count it. */
export interface RunInfo extends RunHolder {
  id: string;
  started_at: string;
  lease_left_ms: number;
}

/** A run opened; refused, it names the run under way. */
export type RunStart = { id: string; recovered: RunInfo | null } | Refused<RunInfo>;

const OPEN = new WeakMap<Context, Map<number, OpenRun>>();

function openRuns(ctx: Context): Map<number, OpenRun> {
  let runs = OPEN.get(ctx);
  if (!runs) OPEN.set(ctx, (runs = new Map()));
  return runs;
}

function info(run: OpenRun, now: number): RunInfo {
  return { id: run.id, pid: run.pid, host: run.host, started_at: new Date(run.startedAt).toISOString(), lease_left_ms: Math.max(0, run.renewedAt + LEASE_MS - now) };
}

/**
 * Opens a run on the promotion. An open run whose lease is still running is another run under way
 * (refused, unless the caller names it in `replaces`: it found that process gone); one whose lease
 * ran out was killed: its snapshot is put back first, and the answer says so (`recovered`).
 */
export function startRun(ctx: Context, holder: RunHolder, promotionId: number | undefined, replaces: string | undefined): RunStart {
  const id = promotionId ?? defaultPromotionId(ctx.db);
  const now = ctx.clock.system();
  const earlier = openRuns(ctx).get(id);
  if (earlier && earlier.renewedAt + LEASE_MS > now && earlier.id !== replaces) return refused(info(earlier, now));
  if (earlier) restore(ctx, earlier);
  const promotion = getPromotion(ctx.db, id);
  const run: OpenRun = {
    ...holder, id: randomUUID(), promotionId: promotion.id, startedAt: now, renewedAt: now,
    callbacks: { production: promotion.production_callback, preview: promotion.preview_callback },
    approvedAt: promotion.approved_at, coverage: storedCoverage(ctx.db, promotion.id), lastEvent: lastApprovalEventId(ctx.db, promotion.id),
  };
  openRuns(ctx).set(promotion.id, run);
  return { id: run.id, recovered: earlier ? info(earlier, now) : null };
}

/** The run is still under way; false: no such open run (it ended, or the emulator restarted). */
export function renewRun(ctx: Context, id: string): boolean {
  const run = [...openRuns(ctx).values()].find((candidate) => candidate.id === id);
  if (run) run.renewedAt = ctx.clock.system();
  return run !== undefined;
}

/** Puts back what the run found and closes it; false: no such open run. */
export function endRun(ctx: Context, id: string): boolean {
  const run = [...openRuns(ctx).values()].find((candidate) => candidate.id === id);
  if (run) restore(ctx, run);
  return run !== undefined;
}

function restore(ctx: Context, run: OpenRun): void {
  ctx.db.transaction(() => {
    setCallbackUrls(ctx.db, run.promotionId, run.callbacks);
    replaceCoverage(ctx.db, run.promotionId, run.coverage);
    setApprovedAt(ctx.db, run.promotionId, run.approvedAt);
    dropApprovalEventsAfter(ctx.db, run.promotionId, run.lastEvent);
  })();
  openRuns(ctx).delete(run.promotionId);
}
