/** Creating and reading consumer sessions: sandbox scenarios and the production code exchange. */
import type { Context } from '../context.js';
import type { Admission } from '../domain/admission.js';
import { deliveryAsOf } from '../domain/delivery.js';
import { CODE_LIFETIME_MS, expired, inWords } from '../domain/limits.js';
import { verifierMatches } from '../domain/pkce.js';
import { termsFor } from '../domain/terms.js';
import { type AuthCode, consumeAuthCode, linkCodeToSession } from '../store/codes.js';
import { recordSandboxSession } from '../store/coverage.js';
import { type Entry, findEntryForSession } from '../store/entries.js';
import type { AgencyKey } from '../store/keys.js';
import { type Campaign, loadCampaign } from '../store/promotions.js';
import { type Session, createSession, revokeSession } from '../store/sessions.js';
import { type PackEntry, packAdmission, sandboxRefusal } from '../use-cases/entry.js';
import { ApiError } from './errors.js';
import type { Scenario } from './schemas.js';
import type { SessionView } from './serialize.js';

export function createSandboxSession(ctx: Context, key: AgencyKey, scenario: Scenario): { view: SessionView; token: string } {
  const now = ctx.clock.now();
  return ctx.db.transaction(() => {
    const { session, token } = createSession(ctx.db, ctx.seed, { keyId: key.id, promotionId: key.promotion_id, sandbox: true, scenario, now });
    recordSandboxSession(ctx.db, key.id, scenario, now);
    return { view: sessionView(ctx, session, loadCampaign(ctx.db, key.promotion_id)), token };
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
    return { created: { view: sessionView(ctx, session, loadCampaign(ctx.db, code.promotion_id)), token } };
  })();
  if (!exchanged.created) throw new ApiError('invalid_grant', { message: exchanged.refusal });
  return exchanged.created;
}

const USED_SESSION_REVOKED = 'The authorization code was already used; the session it produced is revoked. Restart from the pack scan.';
const ALREADY_USED = 'The authorization code was already used by an exchange that failed. Restart from the pack scan.';
const UNKNOWN_CODE = 'Unknown authorization code. Restart from the pack scan.';

function codeProblem(code: AuthCode, key: AgencyKey, verifier: string, now: number): string | undefined {
  if (code.voided_at !== null) return 'The brand changed where this promotion runs (callback URL, pause or production key) after the code was issued. Restart from the pack scan.';
  if (expired(code.expires_at, now)) return `The authorization code expired (codes last ${inWords(CODE_LIFETIME_MS)}). Restart from the pack scan.`;
  if (code.promotion_id !== key.promotion_id) return 'The authorization code belongs to another promotion.';
  if (!verifierMatches(verifier, code.code_challenge)) return 'The code_verifier does not match the code_challenge (S256). Restart from the pack scan.';
  return undefined;
}

/**
 * The session as the read shows it, with its entry's delivery as it stands now (a read never writes).
 * `known` is what the caller has already: the session's entry as it stands now, and the admission it was judged by.
 */
export function sessionView(ctx: Context, session: Session, campaign: Campaign, known: Partial<PackEntry<Admission>> = {}): SessionView {
  const stored = known.entry ? undefined : findEntryForSession(ctx.db, session.id);
  const entry = known.entry ?? (stored && deliveryAsOf(stored, ctx.clock.now()));
  const terms = termsFor(campaign.promotion, session.country);
  const admission = session.sandbox ? (sandboxRefusal(session.scenario) ?? { kind: 'open', terms }) : (known.admission ?? productionAdmission(ctx, session, campaign, entry));
  return { session, campaign, terms, admission, entry };
}

/** What the entry would answer now, before consent. `entered` is the session's own entry, if known: in production, the one entry of its pack. */
function productionAdmission(ctx: Context, session: Session, campaign: Campaign, entered: Entry | undefined): Admission {
  const entrant = { campaign, channel: 'agency' as const, collectorId: session.collector_id, unitId: session.unit_id!, country: session.country };
  return packAdmission(ctx, entrant, entered).admission;
}
