/**
 * The authorize step: the signed-in collector confirms, and the browser goes back to the same
 * callback with a single-use `service_code` bound to the PKCE challenge. Every check runs before
 * anything is redirected, so an invalid request never leaves with unvalidated values: a refusal is
 * answered with a page (journey/errors.ts). @see spec §4.3 steps 4 and 5, §5 (experience) rule 4, §8
 */
import { z } from 'zod';
import type { Context } from '../../context.js';
import { STATE_LENGTH, expired } from '../../domain/limits.js';
import { CHALLENGE_PATTERN, STATE_PATTERN } from '../../domain/pkce.js';
import { issueAuthCode } from '../../store/codes.js';
import type { Collector } from '../../store/collectors.js';
import { type Brand, type Promotion, getBrand, getPromotion } from '../../store/promotions.js';
import { type RequestToken, consumeRequestToken, findRequestToken } from '../../store/request-tokens.js';
import { detailsOf } from '../../validation.js';
import { type Refused, isRefused, refused } from '../../wire-contract.js';

const STATE_PROBLEM = `state must be ${STATE_LENGTH.min} to ${STATE_LENGTH.max} base64url characters.`;
const CHALLENGE_PROBLEM = 'code_challenge must be the 43-character base64url SHA-256 of the verifier.';

export interface AuthorizeRequest {
  requestToken: string;
  state: string;
  codeChallenge: string;
}

/** Why the request cannot continue; a malformed one says which parameter is wrong (`problem`). */
export interface AuthorizeRefusal {
  code: 'not_signed_in' | 'invalid_request' | 'unknown_request' | 'other_collector' | 'used_request' | 'voided_request' | 'expired_request';
  problem?: string;
}

const REQUEST_TOKEN_MAX = 512;
const say = (message: string) => z.string({ error: message });

/**
 * The parameters' shapes; the first that is wrong is named on the page. Any other parameter is
 * ignored. @see spec §4.3 step 4, §5 rule 4, §8
 */
const AuthorizeParams = z
  .object({
    request_token: say('request_token is missing.').min(1, 'request_token is missing.').max(REQUEST_TOKEN_MAX, `request_token is too long (at most ${REQUEST_TOKEN_MAX} characters).`),
    state: say(STATE_PROBLEM).regex(STATE_PATTERN, STATE_PROBLEM),
    code_challenge: say(CHALLENGE_PROBLEM).regex(CHALLENGE_PATTERN, CHALLENGE_PROBLEM),
    code_challenge_method: z.literal('S256', { error: 'code_challenge_method must be S256.' }),
  })
  .transform(({ request_token, state, code_challenge }): AuthorizeRequest => ({ requestToken: request_token, state, codeChallenge: code_challenge }));

/** The request token: known, this collector's, unused, not voided by a routing change, unexpired. @see spec §4.3 step 2, §8, §1 rules */
function checkToken(token: RequestToken | undefined, collector: Collector, now: number): AuthorizeRefusal['code'] | undefined {
  if (!token) return 'unknown_request';
  if (token.collector_id !== collector.id) return 'other_collector';
  if (token.consumed_at !== null) return 'used_request';
  if (token.voided_at !== null) return 'voided_request';
  if (expired(token.expires_at, now)) return 'expired_request';
  return undefined;
}

/** The request as the signed-in collector may continue it, or the refusal. */
function checkAuthorize(ctx: Context, collector: Collector | undefined, source: unknown): { request: AuthorizeRequest; token: RequestToken } | Refused<AuthorizeRefusal> {
  if (!collector) return refused({ code: 'not_signed_in' });
  const parsed = AuthorizeParams.safeParse(source ?? {});
  if (!parsed.success) return refused({ code: 'invalid_request', problem: Object.values(detailsOf(parsed.error))[0]![0]! });
  const token = findRequestToken(ctx.db, parsed.data.requestToken);
  const refusal = checkToken(token, collector, ctx.clock.now());
  if (refusal) return refused({ code: refusal });
  return { request: parsed.data, token: token! };
}

/** What the authorize page shows: the request, the promotion and its brand, and the origin the browser goes back to. */
export function authorizeView(ctx: Context, collector: Collector | undefined, source: unknown): { request: AuthorizeRequest; promotion: Promotion; brand: Brand; origin: string } | Refused<AuthorizeRefusal> {
  const checked = checkAuthorize(ctx, collector, source);
  if (isRefused(checked)) return checked;
  const promotion = getPromotion(ctx.db, checked.token.promotion_id);
  return { request: checked.request, promotion, brand: getBrand(ctx.db, promotion.brand_id), origin: new URL(checked.token.callback_url).origin };
}

/** Consumes the request token and issues the code; the redirect goes to the token's own callback. */
export function continueAuthorize(ctx: Context, collector: Collector | undefined, source: unknown): { location: string } | Refused<AuthorizeRefusal> {
  return ctx.db.transaction((): { location: string } | Refused<AuthorizeRefusal> => {
    const checked = checkAuthorize(ctx, collector, source);
    if (isRefused(checked)) return checked;
    const { token, request } = checked;
    const now = ctx.clock.now();
    if (!consumeRequestToken(ctx.db, token.id, now)) return refused({ code: 'used_request' });
    const code = issueAuthCode(ctx.db, ctx.seed, {
      promotionId: token.promotion_id, collectorId: token.collector_id, unitId: token.unit_id, country: token.country, codeChallenge: request.codeChallenge, now,
    });
    return { location: `${token.callback_url}?${new URLSearchParams({ service_code: code, state: request.state })}` };
  }).immediate();
}
