/**
 * The brand's side of the agency integration: keys, callback URLs, checklist, approval, routing.
 * The JSON control API, the dashboard's forms and the CLI all call these.
 * @see spec §1 lifecycle and rules, §2.1
 */
import type { Context } from '../context.js';
import { type Route, isLive } from '../journey/routing.js';
import { promotionRoute } from '../journey/scan.js';
import { type ApprovalEvent, approvalHistory, recordApprovalEvent } from '../store/approvals.js';
import type { Interaction } from '../store/interactions.js';
import { clearPromotionCoverage, promotionCoverage } from '../store/checklist-coverage.js';
import { type AgencyKey, type Environment, createAgencyKey, revokeKey as revokeStoredKey } from '../store/keys.js';
import { keyStatus, listPromotionKeys } from '../store/promotion-keys.js';
import { type Promotion, firstPromotionId, getBrand, getPromotion, setApprovedAt, setCallbackUrls, setRoutingPaused } from '../store/promotions.js';
import { type CallbackCheck, checkCallbackUrl } from './callback-url.js';
import { type Checklist, checklistOf } from './checklist.js';

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

function keyJson(key: AgencyKey, now: number) {
  return {
    id: key.id, environment: key.environment, masked: key.masked, status: keyStatus(key, now),
    created_at: iso(key.created_at), expires_at: iso(key.expires_at), revoked_at: iso(key.revoked_at),
  };
}

export type KeyJson = ReturnType<typeof keyJson>;

/** The console manages the emulator's one promotion, as `emulator env` shows it. */
function promotion(ctx: Context): Promotion {
  return getPromotion(ctx.db, firstPromotionId(ctx.db));
}

function routing(ctx: Context): Route {
  return promotionRoute(ctx, promotion(ctx));
}

export function checklist(ctx: Context): Checklist {
  return checklistOf(promotionCoverage(ctx.db, promotion(ctx).id));
}

export function keys(ctx: Context): KeyJson[] {
  return listPromotionKeys(ctx.db, promotion(ctx).id).map((key) => keyJson(key, ctx.clock.now()));
}

export function overview(ctx: Context) {
  const current = promotion(ctx);
  const now = ctx.clock.now();
  return {
    promotion: {
      id: current.id, name: current.content.name, brand: getBrand(ctx.db, current.brand_id).name, status: current.content.status,
      live: isLive(current, now), dates: current.content.dates,
    },
    experience: {
      approved_at: iso(current.approved_at), routing_paused: current.routing_paused,
      callbacks: { production: current.production_callback, preview: current.preview_callback },
      routing: promotionRoute(ctx, current),
    },
    keys: keys(ctx),
    checklist: checklistOf(promotionCoverage(ctx.db, current.id)),
    history: approvalHistory(ctx.db, current.id).map((event: ApprovalEvent) => ({ ...event, at: iso(event.at) })),
  };
}

export type Overview = ReturnType<typeof overview>;

/** Interaction-log rows with each key shown masked. */
export function logRows(ctx: Context, rows: Interaction[]) {
  const masked = new Map(listPromotionKeys(ctx.db, promotion(ctx).id).map((key) => [key.id, key.masked]));
  return rows.map((row) => ({ ...row, at: iso(row.at)!, key: row.key_id === null ? null : (masked.get(row.key_id) ?? `#${row.key_id}`) }));
}

export type LogRow = ReturnType<typeof logRows>[number];

/** The secret is returned once; only its hash is stored. @see spec §2.1 */
export function createKey(ctx: Context, environment: Environment): KeyJson & { secret: string } {
  const now = ctx.clock.now();
  const { secret, ...key } = createAgencyKey(ctx.db, ctx.seed, { promotionId: promotion(ctx).id, environment, now });
  return { ...keyJson(key, now), secret };
}

export type KeyChange<T> = { ok: true; value: T } | { ok: false; problem: 'unknown_key' | 'revoked_key' };

/** Rotation creates the new key, which works at once; the old one stays until it is revoked. @see spec §2.1 */
export function rotateKey(ctx: Context, id: number): KeyChange<KeyJson & { secret: string; replaces: number }> {
  const old = listPromotionKeys(ctx.db, promotion(ctx).id).find((key) => key.id === id);
  if (!old) return { ok: false, problem: 'unknown_key' };
  if (old.revoked_at !== null) return { ok: false, problem: 'revoked_key' };
  return { ok: true, value: { ...createKey(ctx, old.environment), replaces: old.id } };
}

/** Revoking the last production key sends later scans to the hosted page; entries stay. @see spec §1 rules */
export function revokeKey(ctx: Context, id: number): KeyChange<{ key: KeyJson; routing: Route }> {
  const current = promotion(ctx);
  if (!listPromotionKeys(ctx.db, current.id).some((key) => key.id === id)) return { ok: false, problem: 'unknown_key' };
  revokeStoredKey(ctx.db, id, ctx.clock.now());
  const key = listPromotionKeys(ctx.db, current.id).find((candidate) => candidate.id === id)!;
  return { ok: true, value: { key: keyJson(key, ctx.clock.now()), routing: routing(ctx) } };
}

export type CallbackChange =
  | { ok: true; callbacks: { production: string; preview: string | null }; changed: boolean; approvalCleared: boolean; warnings: string[] }
  | { ok: false; problems: Record<string, string[]> };

/** Changing either callback URL invalidates the approval and the checklist. @see spec §1 rules */
export function setCallbacks(ctx: Context, input: { production: string; preview?: string }): CallbackChange {
  const checks: Array<[string, CallbackCheck]> = [['production', checkCallbackUrl(input.production)]];
  if (input.preview !== undefined) checks.push(['preview', checkCallbackUrl(input.preview)]);
  const problems = Object.fromEntries(checks.flatMap(([name, check]) => (check.ok ? [] : [[name, [check.reason]]])));
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  const valid = (name: string) => checks.find(([candidate]) => candidate === name)?.[1] as Extract<CallbackCheck, { ok: true }> | undefined;

  const current = promotion(ctx);
  const callbacks = { production: valid('production')!.url, preview: valid('preview')?.url ?? current.preview_callback };
  const changed = callbacks.production !== current.production_callback || callbacks.preview !== current.preview_callback;
  const approvalCleared = changed && current.approved_at !== null;
  if (changed) {
    ctx.db.transaction(() => {
      setCallbackUrls(ctx.db, current.id, callbacks);
      setApprovedAt(ctx.db, current.id, null);
      clearPromotionCoverage(ctx.db, current.id);
      recordApprovalEvent(ctx.db, current.id, { action: 'cleared', reason: 'a callback URL changed: approval and checklist start over', at: ctx.clock.now() });
    })();
  }
  const warnings = checks.flatMap(([name, check]) =>
    check.ok && check.localDevelopment ? [`the ${name} callback uses plain http on loopback: accepted for local development only`] : [],
  );
  return { ok: true, callbacks, changed, approvalCleared, warnings };
}

export type Approval = { ok: true; approved_at: string } | { ok: false; missing: Record<string, string[]> };

/**
 * Explicit approval, refused while the checklist is incomplete, the promotion is not live, or no
 * production callback is set (setting one would clear the approval again). @see spec §1 lifecycle 5 and 6
 */
export function approve(ctx: Context): Approval {
  const current = promotion(ctx);
  const now = ctx.clock.now();
  const missing: Record<string, string[]> = {};
  const { missing: unchecked } = checklistOf(promotionCoverage(ctx.db, current.id));
  if (unchecked.length > 0) missing.checklist = unchecked;
  if (!isLive(current, now)) missing.promotion = ['must be live (status live and within its dates)'];
  if (!current.production_callback) missing.production_callback = ['must be set first: setting it later clears the approval'];
  if (Object.keys(missing).length > 0) return { ok: false, missing };
  if (current.approved_at === null) {
    ctx.db.transaction(() => {
      setApprovedAt(ctx.db, current.id, now);
      recordApprovalEvent(ctx.db, current.id, { action: 'approved', reason: null, at: now });
    })();
  }
  return { ok: true, approved_at: iso(current.approved_at ?? now)! };
}

/** Pausing sends later scans to the hosted page; entries and prizes stay. @see spec §1 rules */
export function setRouting(ctx: Context, paused: boolean): Route {
  const current = promotion(ctx);
  if (current.routing_paused !== paused) {
    ctx.db.transaction(() => {
      setRoutingPaused(ctx.db, current.id, paused);
      recordApprovalEvent(ctx.db, current.id, { action: paused ? 'paused' : 'resumed', reason: null, at: ctx.clock.now() });
    })();
  }
  return routing(ctx);
}
