/**
 * A promotion's agency keys, as the brand changes them: created, rotated, revoked. The JSON API,
 * the dashboard's forms and the CLI call these; each acts on the default promotion unless it is
 * given another promotion's id. @see spec §2.1
 */
import type { Context } from '../../context.js';
import { type AgencyKey, type Environment, createAgencyKey, hasActiveKey, keyStatus, listPromotionKeys, revokeKey as revokeStoredKey } from '../../store/keys.js';
import { voidJourneys } from '../../store/journeys.js';
import type { Promotion } from '../../store/promotions.js';
import type { Route } from '../journey/routing.js';
import { promotionRoute } from '../journey/scan.js';
import { type Refused, refused } from '../../wire-contract.js';
import { iso, promotionOf } from './promotion.js';

/** A key as answers show it: masked, never its secret. */
export function keyJson(key: AgencyKey, now: number) {
  return {
    id: key.id, environment: key.environment, masked: key.masked, status: keyStatus(key, now),
    created_at: iso(key.created_at), expires_at: iso(key.expires_at), revoked_at: iso(key.revoked_at),
  };
}

export type KeyJson = ReturnType<typeof keyJson>;

/** The secret is returned once; only its hash is stored. */
export function createKey(ctx: Context, environment: Environment, promotionId?: number): KeyJson & { secret: string } {
  const now = ctx.clock.now();
  const { secret, ...key } = createAgencyKey(ctx.db, ctx.seed, { promotionId: promotionOf(ctx, promotionId).id, environment, now });
  return { ...keyJson(key, now), secret };
}

/** Why a key was not changed. */
export type KeyRefusal = 'unknown_key' | 'revoked_key';

/** The key `id` names, in the promotion a call acts on, changed by `change`; refused where the promotion has no such key. */
function changeKey<T extends object>(ctx: Context, id: number, promotionId: number | undefined, change: (key: AgencyKey, promotion: Promotion) => T | Refused<KeyRefusal>): T | Refused<KeyRefusal> {
  const promotion = promotionOf(ctx, promotionId);
  const key = listPromotionKeys(ctx.db, promotion.id).find((candidate) => candidate.id === id);
  return key ? change(key, promotion) : refused('unknown_key');
}

/** Rotation creates the new key, which works at once; the old one stays until it is revoked. */
export function rotateKey(ctx: Context, id: number, promotionId?: number): (KeyJson & { secret: string; replaces: number }) | Refused<KeyRefusal> {
  return changeKey(ctx, id, promotionId, (old, promotion) =>
    (old.revoked_at !== null ? refused('revoked_key') : { ...createKey(ctx, old.environment, promotion.id), replaces: old.id }));
}

/**
 * Revoking the last production key sends later scans to the hosted page; entries stay. Journeys
 * already under way are voided with it, so none ends at the agency. @see spec §1 rules
 */
export function revokeKey(ctx: Context, id: number, promotionId?: number): { key: KeyJson; routing: Route } | Refused<KeyRefusal> {
  return changeKey(ctx, id, promotionId, (key, promotion) => {
    const now = ctx.clock.now();
    ctx.db.transaction(() => {
      revokeStoredKey(ctx.db, key.id, now);
      if (!hasActiveKey(ctx.db, promotion.id, 'production', now)) voidJourneys(ctx.db, promotion.id, now);
    })();
    const revoked = listPromotionKeys(ctx.db, promotion.id).find((candidate) => candidate.id === key.id)!;
    return { key: keyJson(revoked, now), routing: promotionRoute(ctx, promotion) };
  });
}
