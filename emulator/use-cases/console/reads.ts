/**
 * What the brand's console reads, per promotion: the promotions and their state, a promotion's
 * keys, checklist and approval history, and the interaction log. The JSON control API, the
 * dashboard and the CLI show these; what changes them is in the other use cases of this folder.
 */
import type { Context } from '../../context.js';
import { availability } from '../../domain/admission.js';
import { isLive } from '../journey/routing.js';
import { promotionRoute } from '../journey/scan.js';
import { type ApprovalEvent, approvalHistory } from '../../store/approvals.js';
import { listInteractions } from '../../store/interaction-reads.js';
import type { Interaction } from '../../store/interactions.js';
import { promotionCoverage } from '../../store/coverage.js';
import { listPromotionKeys } from '../../store/keys.js';
import { type Promotion, defaultPromotionId, getBrand, listPromotions } from '../../store/promotions.js';
import { type Checklist, checklistOf } from './checklist.js';
import { type KeyJson, keyJson } from './keys.js';
import { iso, promotionOf } from './promotion.js';

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

/** The interaction log from after the row `after`, at most `limit` rows, each key masked: the dashboard's live view reads on with it. */
export function logAfter(ctx: Context, { after, limit }: { after: number; limit: number }): LogRow[] {
  return logRows(ctx, listInteractions(ctx.db, { afterId: after, limit }));
}
