/**
 * The sandbox's synthetic results: the session's scenario decides; no pack, no draw, no stock, no
 * scans. Each call is counted for the key's coverage. @see spec §4.1 rule 4
 */
import type { Context } from '../context.js';
import type { Admission } from '../domain/admission.js';
import { CODE_SOURCE } from '../domain/mechanics.js';
import { codeSuffix } from '../store/code-text.js';
import { recordSandboxEntry, recordSandboxSession } from '../store/coverage.js';
import { type Entry, findEntryForSession, storeEntry } from '../store/entries.js';
import type { AgencyKey } from '../store/keys.js';
import type { Campaign } from '../store/promotions.js';
import { type Session, createSession } from '../store/sessions.js';

/** The scenarios a sandbox session can play. */
export const SANDBOX_SCENARIOS = ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered'] as const;
export type Scenario = (typeof SANDBOX_SCENARIOS)[number];

/** What a sandbox scenario refuses every entry with, as the admission rule would. */
export function sandboxRefusal(scenario: string | null): Admission | undefined {
  if (scenario === 'ineligible') return { kind: 'ineligible', reason: 'country_restricted' };
  if (scenario === 'already_entered') return { kind: 'already_entered' };
  return undefined;
}

/** A new sandbox session playing `scenario`, on the key's promotion. */
export function createSandboxSession(ctx: Context, key: AgencyKey, scenario: Scenario): { session: Session; token: string } {
  const now = ctx.clock.now();
  const created = createSession(ctx.db, ctx.seed, { keyId: key.id, promotionId: key.promotion_id, sandbox: true, scenario, now });
  recordSandboxSession(ctx.db, key.id, scenario, now);
  return created;
}

/** The sandbox session's entry: refused as its scenario says, or its one synthetic entry. */
export function enterSandbox(ctx: Context, session: Session, campaign: Campaign): { admission: Admission; entry?: Entry } {
  const now = ctx.clock.now();
  const scenario = session.scenario!;
  const refusal = sandboxRefusal(scenario);
  if (refusal) {
    // Coverage counts the call even though the scenario refuses it.
    recordSandboxEntry(ctx.db, session.key_id, scenario, now);
    return { admission: refusal };
  }
  return ctx.db
    .transaction(() => {
      recordSandboxEntry(ctx.db, session.key_id, scenario, now);
      const existing = findEntryForSession(ctx.db, session.id, now);
      if (existing) return { admission: { kind: 'entered' } as const, entry: existing };
      const delivery = { won: 'instant', pending: 'delayed', failed: 'failed' } as const;
      const mode = delivery[scenario as keyof typeof delivery];
      const code = CODE_SOURCE[campaign.promotion.content.mechanic] === 'none' ? null : `SANDBOX-${codeSuffix(ctx.seed, `sandbox-code:${session.id}`, 8)}`;
      const won = mode && { prize: campaign.prizes[0]!, delivery: mode, code };
      const maker = { campaign, sessionId: session.id, sandbox: true, collectorId: session.collector_id, unitId: session.unit_id, country: session.country, termsVersion: null };
      return { admission: { kind: 'entered' } as const, entry: storeEntry(ctx.db, maker, now, won) };
    })
    .immediate();
}
