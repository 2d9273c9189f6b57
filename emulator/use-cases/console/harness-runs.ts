/**
 * A harness run leaves the brand's console as it found it. A run opens with what the promotion had
 * (its callback URLs, checklist and approval) and ends by putting that back, leaving no line in the
 * approval history: the run's own changes (the URLs it registers, the approval it gives) are not the
 * brand's acts. The open run is kept in this process, with a lease the harness renews: a run that
 * was killed before it ended is found by the next run, which puts its snapshot back first (the
 * harness knows its own marks). A restarted emulator has forgotten its open runs.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.js';
import { dropApprovalEventsAfter, lastApprovalEventId } from '../../store/approvals.js';
import { type StoredCoverage, replaceCoverage, storedCoverage } from '../../store/coverage.js';
import { getPromotion, setApprovedAt, setCallbackUrls } from '../../store/promotions.js';
import { type Refused, refused } from '../../wire-contract.js';
import { promotionOf } from './promotion.js';

/** A run that has not renewed its lease for this long is over, however it ended. */
export const LEASE_MS = 20_000;

/** Who runs the harness, as the harness says: enough for another run on the same machine to tell whether it is still alive. */
export interface RunHolder {
  pid: number;
  host: string;
}

/** A run asked for; `replaces` names the run under way whose process the caller found gone. */
export interface RunRequest extends RunHolder {
  replaces?: string | undefined;
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

/** A run opened; `recovered` is the run whose lease ran out (or that it replaces), put back first. */
export interface RunOpened {
  id: string;
  recovered: RunInfo | null;
}

/** Why a run's renewal or end was refused: no run under way has that id (it ended, or the emulator restarted). */
export type RunRefusal = 'unknown_run';

const OPEN = new WeakMap<Context, Map<number, OpenRun>>();

function openRuns(ctx: Context): Map<number, OpenRun> {
  let runs = OPEN.get(ctx);
  if (!runs) OPEN.set(ctx, (runs = new Map()));
  return runs;
}

function runNamed(ctx: Context, id: string): OpenRun | undefined {
  return [...openRuns(ctx).values()].find((candidate) => candidate.id === id);
}

function info(run: OpenRun, now: number): RunInfo {
  return { id: run.id, pid: run.pid, host: run.host, started_at: new Date(run.startedAt).toISOString(), lease_left_ms: Math.max(0, run.renewedAt + LEASE_MS - now) };
}

/**
 * Opens a run on the promotion. An open run whose lease is still running is another run under way
 * (refused, naming it, unless the caller names it in `replaces`: it found that process gone); one
 * whose lease ran out was killed: its snapshot is put back first, and the answer says so.
 */
export function openRun(ctx: Context, request: RunRequest, promotionId?: number): RunOpened | Refused<RunInfo> {
  const id = promotionOf(ctx, promotionId).id;
  const now = ctx.clock.system();
  const earlier = openRuns(ctx).get(id);
  if (earlier && earlier.renewedAt + LEASE_MS > now && earlier.id !== request.replaces) return refused(info(earlier, now));
  if (earlier) restore(ctx, earlier);
  // Read after the earlier run's snapshot is back: this run keeps what the brand had.
  const promotion = getPromotion(ctx.db, id);
  const run: OpenRun = {
    pid: request.pid, host: request.host, id: randomUUID(), promotionId: promotion.id, startedAt: now, renewedAt: now,
    callbacks: { production: promotion.production_callback, preview: promotion.preview_callback },
    approvedAt: promotion.approved_at, coverage: storedCoverage(ctx.db, promotion.id), lastEvent: lastApprovalEventId(ctx.db, promotion.id),
  };
  openRuns(ctx).set(promotion.id, run);
  return { id: run.id, recovered: earlier ? info(earlier, now) : null };
}

/** The run is still under way: its lease starts again. */
export function renewRun(ctx: Context, id: string): { renewed: true } | Refused<RunRefusal> {
  const run = runNamed(ctx, id);
  if (!run) return refused('unknown_run');
  run.renewedAt = ctx.clock.system();
  return { renewed: true };
}

/** Puts back what the run found and closes it. */
export function endRun(ctx: Context, id: string): { restored: true } | Refused<RunRefusal> {
  const run = runNamed(ctx, id);
  if (!run) return refused('unknown_run');
  restore(ctx, run);
  return { restored: true };
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
