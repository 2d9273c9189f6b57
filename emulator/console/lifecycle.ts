/**
 * The brand's side of the agency integration, per promotion: keys, callback URLs, checklist,
 * approval, routing. The JSON control API, the dashboard's forms and the CLI all call these; each
 * acts on the default promotion unless it is given another promotion's id.
 * @see spec §1 lifecycle and rules, §2.1
 */
import type { Context } from '../context.js';
import type { Details } from '../errors.js';
import { availability } from '../domain/admission.js';
import { type Route, isLive } from '../use-cases/journey/routing.js';
import { promotionRoute } from '../use-cases/journey/scan.js';
import { type ApprovalEvent, approvalHistory, recordApprovalEvent } from '../store/approvals.js';
import type { Interaction } from '../store/interactions.js';
import { clearPromotionCoverage, promotionCoverage } from '../store/coverage.js';
import { voidJourneys } from '../store/journeys.js';
import { type AgencyKey, type Environment, createAgencyKey, revokeKey as revokeStoredKey } from '../store/keys.js';
import { hasActiveKey, keyStatus, listPromotionKeys } from '../store/keys.js';
import { type Promotion, defaultPromotionId, getBrand, getPromotion, listPromotions, setApprovedAt, setCallbackUrls, setRoutingPaused } from '../store/promotions.js';
import { type CallbackCheck, type Refused, checkCallbackUrl, isRefused, refused } from '../wire-contract.js';
import { type Checklist, checklistOf } from './checklist.js';

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

function keyJson(key: AgencyKey, now: number) {
  return {
    id: key.id, environment: key.environment, masked: key.masked, status: keyStatus(key, now),
    created_at: iso(key.created_at), expires_at: iso(key.expires_at), revoked_at: iso(key.revoked_at),
  };
}

export type KeyJson = ReturnType<typeof keyJson>;

/** The promotion a console call acts on: the one named, else the default one. */
function promotionOf(ctx: Context, promotionId: number | undefined): Promotion {
  return getPromotion(ctx.db, promotionId ?? defaultPromotionId(ctx.db));
}

/** How a promotion is named in answers, so a caller that named none learns which one it was. */
export function promotionRef(ctx: Context, promotion: Promotion) {
  return { id: promotion.id, slug: promotion.slug, name: promotion.content.name, default: promotion.id === defaultPromotionId(ctx.db) };
}

export type PromotionRef = ReturnType<typeof promotionRef>;

/** Every promotion with its state: what the dashboard lists and `GET /_emulator/promotions` answers. */
export function promotionSummaries(ctx: Context) {
  const now = ctx.clock.now();
  return listPromotions(ctx.db).map((promotion) => ({
    ...promotionRef(ctx, promotion),
    brand: getBrand(ctx.db, promotion.brand_id).slug,
    mechanic: promotion.content.mechanic,
    status: promotion.content.status,
    live: isLive(promotion, now),
    state: stateOf(promotion, now),
    dates: promotion.content.dates,
    callbacks: { production: promotion.production_callback, preview: promotion.preview_callback },
    approved_at: iso(promotion.approved_at),
    routing: promotionRoute(ctx, promotion),
  }));
}

const STATES = { not_started: 'scheduled', ended: 'ended', not_live: 'draft', paused: 'live' } as const;

/** Live, scheduled to start, ended, or a draft: routing aside. */
function stateOf(promotion: Promotion, now: number): 'live' | (typeof STATES)[keyof typeof STATES] {
  const open = availability(promotion.content, false, now);
  return open.available ? 'live' : STATES[open.reason];
}

export function checklist(ctx: Context, promotionId?: number): Checklist {
  return checklistOf(promotionCoverage(ctx.db, promotionOf(ctx, promotionId).id));
}

export function keys(ctx: Context, promotionId?: number): KeyJson[] {
  return listPromotionKeys(ctx.db, promotionOf(ctx, promotionId).id).map((key) => keyJson(key, ctx.clock.now()));
}

export function overview(ctx: Context, promotionId?: number) {
  const current = promotionOf(ctx, promotionId);
  const now = ctx.clock.now();
  return {
    promotion: {
      ...promotionRef(ctx, current), brand: getBrand(ctx.db, current.brand_id).name, mechanic: current.content.mechanic,
      status: current.content.status, live: isLive(current, now), dates: current.content.dates,
    },
    experience: {
      approved_at: iso(current.approved_at), routing_paused: current.routing_paused,
      callbacks: { production: current.production_callback, preview: current.preview_callback },
      routing: promotionRoute(ctx, current),
    },
    keys: keys(ctx, current.id),
    checklist: checklistOf(promotionCoverage(ctx.db, current.id)),
    history: approvalHistory(ctx.db, current.id).map((event: ApprovalEvent) => ({ ...event, at: iso(event.at) })),
  };
}

export type Overview = ReturnType<typeof overview>;

/** Interaction-log rows with each key shown masked, whichever promotion it belongs to. */
export function logRows(ctx: Context, rows: Interaction[]) {
  const masked = new Map(listPromotions(ctx.db).flatMap((promotion) => listPromotionKeys(ctx.db, promotion.id)).map((key) => [key.id, key.masked]));
  return rows.map((row) => ({ ...row, at: iso(row.at)!, key: row.key_id === null ? null : (masked.get(row.key_id) ?? `#${row.key_id}`) }));
}

export type LogRow = ReturnType<typeof logRows>[number];

/** The secret is returned once; only its hash is stored. @see spec §2.1 */
export function createKey(ctx: Context, environment: Environment, promotionId?: number): KeyJson & { secret: string } {
  const now = ctx.clock.now();
  const { secret, ...key } = createAgencyKey(ctx.db, ctx.seed, { promotionId: promotionOf(ctx, promotionId).id, environment, now });
  return { ...keyJson(key, now), secret };
}

/** Why a key was not changed. */
export type KeyRefusal = 'unknown_key' | 'revoked_key';

/** Rotation creates the new key, which works at once; the old one stays until it is revoked. @see spec §2.1 */
export function rotateKey(ctx: Context, id: number, promotionId?: number): (KeyJson & { secret: string; replaces: number }) | Refused<KeyRefusal> {
  const current = promotionOf(ctx, promotionId);
  const old = listPromotionKeys(ctx.db, current.id).find((key) => key.id === id);
  if (!old) return refused('unknown_key');
  if (old.revoked_at !== null) return refused('revoked_key');
  return { ...createKey(ctx, old.environment, current.id), replaces: old.id };
}

/**
 * Revoking the last production key sends later scans to the hosted page; entries stay. Journeys
 * already under way are voided with it, so none ends at the agency. @see spec §1 rules
 */
export function revokeKey(ctx: Context, id: number, promotionId?: number): { key: KeyJson; routing: Route } | Refused<KeyRefusal> {
  const current = promotionOf(ctx, promotionId);
  if (!listPromotionKeys(ctx.db, current.id).some((key) => key.id === id)) return refused('unknown_key');
  const now = ctx.clock.now();
  ctx.db.transaction(() => {
    revokeStoredKey(ctx.db, id, now);
    if (!hasActiveKey(ctx.db, current.id, 'production', now)) voidJourneys(ctx.db, current.id, now);
  })();
  const key = listPromotionKeys(ctx.db, current.id).find((candidate) => candidate.id === id)!;
  return { key: keyJson(key, now), routing: promotionRoute(ctx, current) };
}

export interface CallbackChange {
  callbacks: { production: string; preview: string | null };
  changed: boolean;
  approvalCleared: boolean;
  warnings: string[];
}

/**
 * Changing either callback URL invalidates the approval and the checklist, and voids the journeys
 * under way, whose service_code would go to the old callback. @see spec §1 rules
 */
/** A refusal names each URL's problems (field → messages). */
export function setCallbacks(ctx: Context, input: { production: string; preview?: string }, promotionId?: number): CallbackChange | Refused<Details> {
  const checks: Array<[string, CallbackCheck]> = [['production', checkCallbackUrl(input.production)]];
  if (input.preview !== undefined) checks.push(['preview', checkCallbackUrl(input.preview)]);
  const problems = Object.fromEntries(checks.flatMap(([name, check]) => (isRefused(check) ? [[name, [check.refused]]] : [])));
  if (Object.keys(problems).length > 0) return refused(problems);
  const valid = (name: string) => checks.find(([candidate]) => candidate === name)?.[1] as Exclude<CallbackCheck, Refused<string>> | undefined;

  const current = promotionOf(ctx, promotionId);
  const callbacks = { production: valid('production')!.url, preview: valid('preview')?.url ?? current.preview_callback };
  const changed = callbacks.production !== current.production_callback || callbacks.preview !== current.preview_callback;
  const approvalCleared = changed && current.approved_at !== null;
  if (changed) {
    const now = ctx.clock.now();
    ctx.db.transaction(() => {
      setCallbackUrls(ctx.db, current.id, callbacks);
      setApprovedAt(ctx.db, current.id, null);
      clearPromotionCoverage(ctx.db, current.id);
      voidJourneys(ctx.db, current.id, now);
      recordApprovalEvent(ctx.db, current.id, { action: 'cleared', reason: 'a callback URL changed: approval and checklist start over', at: now });
    })();
  }
  const warnings = checks.flatMap(([name, check]) =>
    !isRefused(check) && check.localDevelopment ? [`the ${name} callback uses plain http on loopback: accepted for local development only`] : [],
  );
  return { callbacks, changed, approvalCleared, warnings };
}

/**
 * Explicit approval, refused while the checklist is incomplete, the promotion is not live, or no
 * production callback is set (setting one would clear the approval again); a refusal names what is
 * missing (field → messages). @see spec §1 lifecycle 5 and 6
 */
export function approve(ctx: Context, promotionId?: number): { approved_at: string } | Refused<Details> {
  const current = promotionOf(ctx, promotionId);
  const now = ctx.clock.now();
  const missing: Record<string, string[]> = {};
  const { missing: unchecked } = checklistOf(promotionCoverage(ctx.db, current.id));
  if (unchecked.length > 0) missing.checklist = unchecked;
  if (!isLive(current, now)) missing.promotion = ['must be live (status live and within its dates)'];
  if (!current.production_callback) missing.production_callback = ['must be set first: setting it later clears the approval'];
  if (Object.keys(missing).length > 0) return refused(missing);
  if (current.approved_at === null) {
    ctx.db.transaction(() => {
      setApprovedAt(ctx.db, current.id, now);
      recordApprovalEvent(ctx.db, current.id, { action: 'approved', reason: null, at: now });
    })();
  }
  return { approved_at: iso(current.approved_at ?? now)! };
}

/** Pausing sends later scans to the hosted page and voids the journeys under way; entries and prizes stay. @see spec §1 rules */
export function setRouting(ctx: Context, paused: boolean, promotionId?: number): Route {
  const current = promotionOf(ctx, promotionId);
  if (current.routing_paused !== paused) {
    const now = ctx.clock.now();
    ctx.db.transaction(() => {
      setRoutingPaused(ctx.db, current.id, paused);
      if (paused) voidJourneys(ctx.db, current.id, now);
      recordApprovalEvent(ctx.db, current.id, { action: paused ? 'paused' : 'resumed', reason: null, at: now });
    })();
  }
  return promotionRoute(ctx, getPromotion(ctx.db, current.id));
}
