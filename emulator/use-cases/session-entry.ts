/**
 * POST /session/entry: an agency session's entry. The sandbox's is synthetic (sandbox.ts); in
 * production it is the entry of the session's pack, by its collector and journey country, drawn
 * or found (pack-entry.ts). Answers the session as the entry leaves it, or the admission's refusal.
 * @see spec §4.1 rules 2, 4 and 5, §4.2, §2.5
 */
import type { Context } from '../context.js';
import type { Admission, EntryAdmission } from '../domain/admission.js';
import type { ConsentInput } from '../domain/consent.js';
import { loadCampaign } from '../store/promotions.js';
import type { Session } from '../store/sessions.js';
import { enterPack } from './pack-entry.js';
import { type Refused, refused } from '../wire-contract.js';
import { enterSandbox } from './sandbox.js';
import { type SessionView, sessionViewAfterEntry } from './session-view.js';

/** The admission's refusals of an entry (domain/admission.ts). */
export type EntryRefusal = Exclude<EntryAdmission, { kind: 'open' | 'entered' }>;

export function createSessionEntry(ctx: Context, session: Session, consent: ConsentInput | undefined): SessionView | Refused<EntryRefusal> {
  const campaign = loadCampaign(ctx.db, session.promotion_id);
  const { admission, entry } = session.sandbox
    ? enterSandbox(ctx, session, campaign)
    : enterPack(ctx, { campaign, channel: 'agency', collectorId: session.collector_id, unitId: session.unit_id!, country: session.country }, consent, () => session.id);
  if (!admitted(admission)) return refused(admission);
  return sessionViewAfterEntry(session, campaign, admission, entry);
}

function admitted(admission: Admission | EntryAdmission): admission is Extract<Admission, { kind: 'open' | 'entered' }> {
  return admission.kind === 'open' || admission.kind === 'entered';
}
