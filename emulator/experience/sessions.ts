/** Creating and reading consumer sessions: sandbox scenarios and the production code exchange. */
import type { Context } from '../context.js';
import { availability, countryRefusal, type Eligibility } from '../domain/eligibility.js';
import { verifierMatches } from '../domain/pkce.js';
import { type AuthCode, consumeAuthCode, linkCodeToSession } from '../store/codes.js';
import { recordSandboxSession } from '../store/coverage.js';
import { type Entry, findEntryForSession, findProductionEntryForPack, settleDelivery } from '../store/entries.js';
import type { AgencyKey } from '../store/keys.js';
import { getBrand, getPromotion, listPrizes, type Promotion } from '../store/promotions.js';
import { type Session, createSession, revokeSession } from '../store/sessions.js';
import { ApiError } from './errors.js';
import type { Scenario } from './schemas.js';
import { campaignJson, entryJson, type SessionView, termsFor } from './serialize.js';

export function createSandboxSession(ctx: Context, key: AgencyKey, scenario: Scenario): { view: SessionView; token: string } {
  const now = ctx.clock.now();
  return ctx.db.transaction(() => {
    const { session, token } = createSession(ctx.db, ctx.seed, { keyId: key.id, promotionId: key.promotion_id, sandbox: true, scenario, now });
    recordSandboxSession(ctx.db, key.id, scenario, now);
    return { view: sessionView(ctx, session), token };
  })();
}

/**
 * The authorization-code exchange with PKCE. Any presented code is consumed, and the consumption
 * is committed even when a check then fails, so a failed exchange cannot be retried; presenting a
 * used code again revokes the session it produced.
 * @see spec §4.3 step 6, §5 rule 4, RFC 7636 §4.6
 */
export function exchangeCode(ctx: Context, key: AgencyKey, input: { authorization_code: string; code_verifier: string }): { view: SessionView; token: string } {
  const now = ctx.clock.now();
  const exchanged = ctx.db.transaction(() => {
    const { code, alreadyUsed } = consumeAuthCode(ctx.db, input.authorization_code, now);
    if (alreadyUsed && alreadyUsed.session_id !== null) revokeSession(ctx.db, alreadyUsed.session_id, now);
    const refusal = alreadyUsed ? (alreadyUsed.session_id !== null ? USED_SESSION_REVOKED : ALREADY_USED) : code ? codeProblem(code, key, input.code_verifier, now) : UNKNOWN_CODE;
    if (refusal || !code) return { refusal };
    const { session, token } = createSession(ctx.db, ctx.seed, {
      keyId: key.id, promotionId: code.promotion_id, sandbox: false,
      collectorId: code.collector_id, unitId: code.unit_id, country: code.country, now,
    });
    linkCodeToSession(ctx.db, code.id, session.id);
    return { created: { view: sessionView(ctx, session), token } };
  })();
  if (!exchanged.created) throw new ApiError('invalid_grant', { message: exchanged.refusal });
  return exchanged.created;
}

const USED_SESSION_REVOKED = 'The authorization code was already used; the session it produced is revoked. Restart from the pack scan.';
const ALREADY_USED = 'The authorization code was already used by an exchange that failed. Restart from the pack scan.';
const UNKNOWN_CODE = 'Unknown authorization code. Restart from the pack scan.';

function codeProblem(code: AuthCode, key: AgencyKey, verifier: string, now: number): string | undefined {
  if (now >= code.expires_at) return 'The authorization code expired (codes last 5 minutes). Restart from the pack scan.';
  if (code.promotion_id !== key.promotion_id) return 'The authorization code belongs to another promotion.';
  if (!verifierMatches(verifier, code.code_challenge)) return 'The code_verifier does not match the code_challenge (S256). Restart from the pack scan.';
  return undefined;
}

export function sessionView(ctx: Context, session: Session, current?: Entry): SessionView {
  const promotion = getPromotion(ctx.db, session.promotion_id);
  const prizes = listPrizes(ctx.db, promotion.id);
  const stored = current ?? findEntryForSession(ctx.db, session.id);
  const entry = stored && settleDelivery(ctx.db, stored, ctx.clock.now());
  return {
    session,
    campaign: campaignJson(promotion, getBrand(ctx.db, promotion.brand_id), prizes),
    terms: termsFor(promotion, session.country),
    eligibility: eligibilityOf(ctx, session, promotion, stored),
    entry: entry ? entryJson(entry, prizes.find((prize) => prize.id === entry.prize_id)) : null,
    deliveryState: entry?.delivery_state ?? 'none',
  };
}

/** `entered` is the session's own entry, if any: in production, the one entry of its pack. */
function eligibilityOf(ctx: Context, session: Session, promotion: Promotion, entered: Entry | undefined): Eligibility {
  const country = session.country;
  if (session.sandbox) {
    if (session.scenario === 'ineligible') return { eligible: false, reason: 'country_restricted', country };
    if (session.scenario === 'already_entered') return { eligible: false, reason: 'already_entered', country };
    return { eligible: true, reason: null, country };
  }
  const open = availability({ ...promotion.content, routingPaused: promotion.routing_paused }, ctx.clock.now());
  if (!open.available) return { eligible: false, reason: 'unavailable', country };
  const refusal = countryRefusal(promotion.content.countries, country);
  if (refusal) return { eligible: false, reason: refusal, country };
  const existing = entered ?? findProductionEntryForPack(ctx.db, promotion.id, session.unit_id!);
  if (existing && existing.collector_id !== session.collector_id) return { eligible: false, reason: 'already_entered', country };
  return { eligible: true, reason: null, country };
}
