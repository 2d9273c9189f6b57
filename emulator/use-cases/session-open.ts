/**
 * POST /sessions: a new consumer session. With a sandbox key, one playing the scenario asked for
 * (`openSandboxSession`); with a production key, the authorization-code exchange with PKCE
 * (`exchangeCode`): the route picks one by the key's environment. Any presented code is
 * consumed, and the consumption is committed even when a check then fails, so a failed exchange
 * cannot be retried; presenting a used code again revokes the session it produced.
 * @see spec §4.1, §4.3 step 6, §5 rule 4, RFC 7636 §4.6
 */
import type { Context } from '../context.js';
import { expired } from '../domain/limits.js';
import { verifierMatches } from '../domain/pkce.js';
import { type AuthCode, consumeAuthCode, linkCodeToSession } from '../store/codes.js';
import type { AgencyKey } from '../store/keys.js';
import { loadCampaign } from '../store/promotions.js';
import { createSession, revokeSession } from '../store/sessions.js';
import { type Refused, refused } from '../wire-contract.js';
import { type Scenario, createSandboxSession } from './sandbox.js';
import { type SessionView, sessionViewNow } from './session-view.js';

/** Why an exchange failed. */
export type ExchangeRefusal = 'used_session_revoked' | 'already_used' | 'unknown_code' | 'voided' | 'expired' | 'other_promotion' | 'verifier_mismatch';

export interface OpenedSession {
  view: SessionView;
  token: string;
}

/** A sandbox key's session, playing the scenario asked for. */
export function openSandboxSession(ctx: Context, key: AgencyKey, input: { scenario: Scenario }): OpenedSession {
  return ctx.db.transaction(() => {
    const { session, token } = createSandboxSession(ctx, key, input.scenario);
    return { view: sessionViewNow(ctx, session, loadCampaign(ctx.db, key.promotion_id)), token };
  })();
}

/** A production key's session: the authorization code exchanged, with its PKCE verifier. */
export function exchangeCode(ctx: Context, key: AgencyKey, input: { authorization_code: string; code_verifier: string }): OpenedSession | Refused<ExchangeRefusal> {
  const now = ctx.clock.now();
  return ctx.db.transaction((): OpenedSession | Refused<ExchangeRefusal> => {
    const { code, alreadyUsed } = consumeAuthCode(ctx.db, input.authorization_code, now);
    if (alreadyUsed && alreadyUsed.session_id !== null) revokeSession(ctx.db, alreadyUsed.session_id, now);
    const refusal = alreadyUsed ? (alreadyUsed.session_id !== null ? 'used_session_revoked' : 'already_used') : code ? codeProblem(code, key, input.code_verifier, now) : 'unknown_code';
    if (refusal) return refused(refusal);
    if (!code) return refused('unknown_code');
    const { session, token } = createSession(ctx.db, ctx.seed, {
      keyId: key.id, promotionId: code.promotion_id, sandbox: false,
      collectorId: code.collector_id, unitId: code.unit_id, country: code.country, now,
    });
    linkCodeToSession(ctx.db, code.id, session.id);
    return { view: sessionViewNow(ctx, session, loadCampaign(ctx.db, code.promotion_id)), token };
  })();
}

function codeProblem(code: AuthCode, key: AgencyKey, verifier: string, now: number): ExchangeRefusal | undefined {
  if (code.voided_at !== null) return 'voided';
  if (expired(code.expires_at, now)) return 'expired';
  if (code.promotion_id !== key.promotion_id) return 'other_promotion';
  if (!verifierMatches(verifier, code.code_challenge)) return 'verifier_mismatch';
  return undefined;
}
