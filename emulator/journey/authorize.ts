/**
 * The authorize step: the signed-in collector confirms, and the browser goes back to the same
 * callback with a single-use `service_code` bound to the PKCE challenge. Every check runs before
 * anything is redirected, so an invalid request never leaves with unvalidated values.
 * @see spec §4.3 steps 4 and 5, §5 (experience) rule 4, §8
 */
import type { Context } from '../context.js';
import { expired } from '../domain/limits.js';
import { CHALLENGE_PATTERN, STATE_PATTERN } from '../domain/pkce.js';
import { issueAuthCode } from '../store/codes.js';
import type { Collector } from '../store/collectors.js';
import { type RequestToken, consumeRequestToken, findRequestToken } from '../store/request-tokens.js';
import { field } from '../pages/http.js';
import type { ErrorTable } from '../errors.js';

/** The authorize page's refusals as data, answered as HTML pages with these statuses. */
export const AUTHORIZE_ERRORS = {
  not_signed_in: { status: 401, message: 'You are not signed in any more. Scan the pack again to start over.' },
  invalid_request: { status: 400, message: 'This link is incomplete or malformed, so it cannot be continued. Scan the pack again.' },
  unknown_request: { status: 400, message: 'This request is not known to the service. Scan the pack again.' },
  other_collector: { status: 403, message: 'This request was made for another account. Sign in with that account or scan the pack again.' },
  used_request: { status: 410, message: 'This request was already used. Scan the pack again to start over.' },
  expired_request: { status: 410, message: 'This request has expired (they last 5 minutes). Scan the pack again to start over.' },
  voided_request: { status: 410, message: 'The brand changed where this promotion runs since this request was made. Scan the pack again to start over.' },
} as const satisfies ErrorTable;

export type AuthorizeError = keyof typeof AUTHORIZE_ERRORS;

export interface AuthorizeRequest {
  requestToken: string;
  state: string;
  codeChallenge: string;
}

export type Refusal = { ok: false; error: AuthorizeError; detail?: string };
export type Checked = { ok: true; request: AuthorizeRequest; token: RequestToken } | Refusal;

/** The parameters' shapes. @see spec §4.3 step 4, §5 rule 4 */
function parseRequest(source: unknown): AuthorizeRequest | string {
  const requestToken = field(source, 'request_token');
  const state = field(source, 'state');
  const codeChallenge = field(source, 'code_challenge');
  if (!requestToken) return 'request_token is missing.';
  if (requestToken.length > 512) return 'request_token is too long (at most 512 characters).';
  if (!state || !STATE_PATTERN.test(state)) return 'state must be 32 to 128 base64url characters.';
  if (!codeChallenge || !CHALLENGE_PATTERN.test(codeChallenge)) return 'code_challenge must be the 43-character base64url SHA-256 of the verifier.';
  if (field(source, 'code_challenge_method') !== 'S256') return 'code_challenge_method must be S256.';
  return { requestToken, state, codeChallenge };
}

/** The request token: known, this collector's, unused, not voided by a routing change, unexpired. @see spec §4.3 step 2, §8, §1 rules */
function checkToken(token: RequestToken | undefined, collector: Collector, now: number): AuthorizeError | undefined {
  if (!token) return 'unknown_request';
  if (token.collector_id !== collector.id) return 'other_collector';
  if (token.consumed_at !== null) return 'used_request';
  if (token.voided_at !== null) return 'voided_request';
  if (expired(token.expires_at, now)) return 'expired_request';
  return undefined;
}

export function checkAuthorize(ctx: Context, collector: Collector | undefined, source: unknown): Checked {
  if (!collector) return { ok: false, error: 'not_signed_in' };
  const request = parseRequest(source);
  if (typeof request === 'string') return { ok: false, error: 'invalid_request', detail: request };
  const token = findRequestToken(ctx.db, request.requestToken);
  const error = checkToken(token, collector, ctx.clock.now());
  return error ? { ok: false, error } : { ok: true, request, token: token! };
}

/** Consumes the request token and issues the code; the redirect goes to the token's own callback. */
export function continueAuthorize(ctx: Context, collector: Collector | undefined, source: unknown): { ok: true; location: string } | Refusal {
  return ctx.db.transaction((): { ok: true; location: string } | Refusal => {
    const checked = checkAuthorize(ctx, collector, source);
    if (!checked.ok) return checked;
    const now = ctx.clock.now();
    if (!consumeRequestToken(ctx.db, checked.token.id, now)) return { ok: false, error: 'used_request' };
    const { token, request } = checked;
    const code = issueAuthCode(ctx.db, ctx.seed, {
      promotionId: token.promotion_id, collectorId: token.collector_id, unitId: token.unit_id, country: token.country, codeChallenge: request.codeChallenge, now,
    });
    return { ok: true, location: `${token.callback_url}?${new URLSearchParams({ service_code: code, state: request.state })}` };
  }).immediate();
}
