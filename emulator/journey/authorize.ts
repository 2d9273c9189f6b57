/**
 * The authorize step: the signed-in collector confirms, and the browser goes back to the same
 * callback with a single-use `service_code` bound to the PKCE challenge. Every check runs before
 * anything is redirected, so an invalid request never leaves with unvalidated values.
 * @see spec §4.3 steps 4 and 5, §5 (experience) rule 4, §8
 */
import { z } from 'zod';
import type { Context } from '../context.js';
import { STATE_LENGTH, expired } from '../domain/limits.js';
import { CHALLENGE_PATTERN, STATE_PATTERN } from '../domain/pkce.js';
import { issueAuthCode } from '../store/codes.js';
import type { Collector } from '../store/collectors.js';
import { type RequestToken, consumeRequestToken, findRequestToken } from '../store/request-tokens.js';
import { validate } from '../validation.js';
import { JOURNEY_ERRORS, type JourneyCode, JourneyError } from './errors.js';

const STATE_PROBLEM = `state must be ${STATE_LENGTH.min} to ${STATE_LENGTH.max} base64url characters.`;
const CHALLENGE_PROBLEM = 'code_challenge must be the 43-character base64url SHA-256 of the verifier.';

export interface AuthorizeRequest {
  requestToken: string;
  state: string;
  codeChallenge: string;
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
function checkToken(token: RequestToken | undefined, collector: Collector, now: number): JourneyCode | undefined {
  if (!token) return 'unknown_request';
  if (token.collector_id !== collector.id) return 'other_collector';
  if (token.consumed_at !== null) return 'used_request';
  if (token.voided_at !== null) return 'voided_request';
  if (expired(token.expires_at, now)) return 'expired_request';
  return undefined;
}

/** The request as the signed-in collector may continue it, or the refusal. */
export function checkAuthorize(ctx: Context, collector: Collector | undefined, source: unknown): { request: AuthorizeRequest; token: RequestToken } {
  if (!collector) throw new JourneyError('not_signed_in');
  const request = validate(AuthorizeParams, source, {
    error: (details) => new JourneyError('invalid_request', { message: `${JOURNEY_ERRORS.invalid_request.message} (${Object.values(details)[0]![0]})` }),
  });
  const token = findRequestToken(ctx.db, request.requestToken);
  const refused = checkToken(token, collector, ctx.clock.now());
  if (refused) throw new JourneyError(refused);
  return { request, token: token! };
}

/** Consumes the request token and issues the code; the redirect goes to the token's own callback. */
export function continueAuthorize(ctx: Context, collector: Collector | undefined, source: unknown): string {
  return ctx.db.transaction((): string => {
    const { token, request } = checkAuthorize(ctx, collector, source);
    const now = ctx.clock.now();
    if (!consumeRequestToken(ctx.db, token.id, now)) throw new JourneyError('used_request');
    const code = issueAuthCode(ctx.db, ctx.seed, {
      promotionId: token.promotion_id, collectorId: token.collector_id, unitId: token.unit_id, country: token.country, codeChallenge: request.codeChallenge, now,
    });
    return `${token.callback_url}?${new URLSearchParams({ service_code: code, state: request.state })}`;
  }).immediate();
}
