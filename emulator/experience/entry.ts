/** Submitting an entry: sandbox scenarios and the production draw. @see spec §4.1, §4.2, §2.5 */
import type { Context } from '../context.js';
import { announce } from '../events.js';
import { type Closed, admitEntry } from '../domain/admission.js';
import { DELIVERED_CODE } from '../domain/mechanics.js';
import { recordSandboxEntry } from '../store/coverage.js';
import { type Entry, findEntryForSession, findProductionEntryForPack } from '../store/entries.js';
import { type EntrySubject, type Writer, drawEntry, insertOutcome } from '../store/outcomes.js';
import { type Campaign, loadCampaign } from '../store/promotions.js';
import type { Session } from '../store/sessions.js';
import { codeSuffix } from '../store/code-text.js';
import { ApiError } from './errors.js';
import type { Consent } from './schemas.js';
import type { SessionView } from './serialize.js';
import { admissionInput, sessionView } from './sessions.js';

const UNAVAILABLE_MESSAGES: Record<Closed['reason'], string> = {
  ended: 'The promotion has ended. Show an unavailable state and a route back to the Rewards page.',
  not_live: 'The promotion is not live. Show an unavailable state and a route back to the Rewards page.',
  not_started: 'The promotion has not started yet. Show an unavailable state and a route back to the Rewards page.',
  paused: 'The brand has paused the agency experience. Show an unavailable state and a route back to the Rewards page.',
};

export function submitEntry(ctx: Context, session: Session, consent: Consent | undefined): SessionView {
  const campaign = loadCampaign(ctx.db, session.promotion_id);
  if (session.sandbox) return sandboxEntry(ctx, session, campaign);
  const { view, created } = ctx.db.transaction(() => productionEntry(ctx, session, campaign, consent)).immediate();
  if (created) announce(ctx, 'entry.created', { entryId: created.id });
  return view;
}

/** Sandbox results are synthetic: no pack, no draw, no stock, no scans. @see spec §4.1 rule 4 */
function sandboxEntry(ctx: Context, session: Session, campaign: Campaign): SessionView {
  const now = ctx.clock.now();
  const scenario = session.scenario!;
  if (scenario === 'ineligible' || scenario === 'already_entered') {
    // Coverage counts the call even though the scenario refuses it.
    recordSandboxEntry(ctx.db, session.key_id, scenario, now);
    throw new ApiError(scenario);
  }
  return ctx.db
    .transaction(() => {
      recordSandboxEntry(ctx.db, session.key_id, scenario, now);
      const existing = findEntryForSession(ctx.db, session.id);
      if (existing) return sessionView(ctx, session, campaign, existing);
      const delivery = { won: 'instant', pending: 'delayed', failed: 'failed' } as const;
      const mode = delivery[scenario as keyof typeof delivery];
      const code = DELIVERED_CODE[campaign.promotion.content.mechanic] === 'none' ? null : `SANDBOX-${codeSuffix(ctx.seed, `sandbox-code:${session.id}`, 8)}`;
      const won = mode && { prize: campaign.prizes[0]!, delivery: mode, code };
      return sessionView(ctx, session, campaign, insertOutcome(writerOf(ctx), subjectOf(session, campaign, null), won));
    })
    .immediate();
}

/** The admission rule decides (domain/admission.ts); each refusal has its code of spec §4.2. */
function productionEntry(ctx: Context, session: Session, campaign: Campaign, consent: Consent | undefined): { view: SessionView; created?: Entry } {
  const existing = findProductionEntryForPack(ctx.db, campaign.promotion.id, session.unit_id!);
  const admission = admitEntry(admissionInput(ctx, session, campaign, existing), consent);
  switch (admission.kind) {
    case 'closed':
      throw new ApiError('unavailable', { status: admission.closed.status, message: UNAVAILABLE_MESSAGES[admission.closed.reason] });
    case 'taken':
      throw new ApiError('already_entered');
    case 'ineligible':
      throw new ApiError('ineligible');
    case 'consent_required':
      throw new ApiError('consent_required', { message: `${admission.problem} Refresh the session's terms and ask the customer to accept them.` });
    case 'entered':
      return { view: sessionView(ctx, session, campaign, existing) };
    case 'open': {
      const entry = drawEntry(writerOf(ctx), { ...subjectOf(session, campaign, consent?.terms_version ?? null), unitId: session.unit_id! });
      return { view: sessionView(ctx, session, campaign, entry), created: entry };
    }
  }
}

function writerOf(ctx: Context): Writer {
  return { db: ctx.db, seed: ctx.seed, now: ctx.clock.now() };
}

function subjectOf(session: Session, campaign: Campaign, termsVersion: string | null): EntrySubject {
  return {
    campaign, sessionId: session.id, sandbox: session.sandbox === 1,
    collectorId: session.collector_id, unitId: session.unit_id, country: session.country, termsVersion,
  };
}
