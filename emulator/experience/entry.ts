/** Submitting an entry: the entry use case's answer as the experience API's. @see spec §4.1, §4.2, §2.5 */
import type { Context } from '../context.js';
import type { Admission, Closed, EntryAdmission } from '../domain/admission.js';
import type { Session } from '../store/sessions.js';
import { enterSession } from '../use-cases/entry.js';
import { ApiError } from './errors.js';
import type { Consent } from './schemas.js';
import type { SessionView } from './serialize.js';
import { sessionView } from './sessions.js';

const UNAVAILABLE_MESSAGES: Record<Closed['reason'], string> = {
  ended: 'The promotion has ended. Show an unavailable state and a route back to the Rewards page.',
  not_live: 'The promotion is not live. Show an unavailable state and a route back to the Rewards page.',
  not_started: 'The promotion has not started yet. Show an unavailable state and a route back to the Rewards page.',
  paused: 'The brand has paused the agency experience. Show an unavailable state and a route back to the Rewards page.',
};

export function submitEntry(ctx: Context, session: Session, consent: Consent | undefined): SessionView {
  const { campaign, admission, entry } = enterSession(ctx, session, consent);
  return sessionView(ctx, session, campaign, { entry, admission: entered(admission) });
}

/** Each refusal of the admission rule (domain/admission.ts) has its code of spec §4.2; an entered pack answers with its entry. */
function entered(admission: EntryAdmission): Admission {
  switch (admission.kind) {
    case 'closed':
      throw new ApiError('unavailable', { status: admission.closed.status, message: UNAVAILABLE_MESSAGES[admission.closed.reason] });
    case 'taken':
      throw new ApiError('already_entered');
    case 'ineligible':
      throw new ApiError('ineligible');
    case 'consent_required':
      throw new ApiError('consent_required', { message: `${admission.problem} Refresh the session's terms and ask the customer to accept them.` });
    default:
      return admission;
  }
}
