/** The use cases' refusals in the experience API's words: each its code of spec §4.2 and its message. @see spec §4.2 */
import type { Closed } from '../domain/admission.js';
import { CODE_LIFETIME_MS, inWords } from '../domain/limits.js';
import type { EntryRefusal } from '../use-cases/session-entry.js';
import type { ExchangeRefusal } from '../use-cases/session-open.js';
import { ApiError } from './errors.js';

const UNAVAILABLE_MESSAGES: Record<Closed['reason'], string> = {
  ended: 'The promotion has ended. Show an unavailable state and a route back to the Rewards page.',
  not_live: 'The promotion is not live. Show an unavailable state and a route back to the Rewards page.',
  not_started: 'The promotion has not started yet. Show an unavailable state and a route back to the Rewards page.',
  paused: 'The brand has paused the agency experience. Show an unavailable state and a route back to the Rewards page.',
};

export function entryRefusal(refusal: EntryRefusal): ApiError {
  switch (refusal.kind) {
    case 'closed':
      return new ApiError('unavailable', { status: refusal.closed.status, message: UNAVAILABLE_MESSAGES[refusal.closed.reason] });
    case 'already_entered':
      return new ApiError('already_entered');
    case 'ineligible':
      return new ApiError('ineligible');
    case 'consent_required':
      return new ApiError('consent_required', { message: `${refusal.problem} Refresh the session's terms and ask the customer to accept them.` });
  }
}

const EXCHANGE_MESSAGES: Record<ExchangeRefusal, string> = {
  used_session_revoked: 'The authorization code was already used; the session it produced is revoked. Restart from the pack scan.',
  already_used: 'The authorization code was already used by an exchange that failed. Restart from the pack scan.',
  unknown_code: 'Unknown authorization code. Restart from the pack scan.',
  voided: 'The brand changed where this promotion runs (callback URL, pause or production key) after the code was issued. Restart from the pack scan.',
  expired: `The authorization code expired (codes last ${inWords(CODE_LIFETIME_MS)}). Restart from the pack scan.`,
  other_promotion: 'The authorization code belongs to another promotion.',
  verifier_mismatch: 'The code_verifier does not match the code_challenge (S256). Restart from the pack scan.',
};

export function exchangeRefusal(refusal: ExchangeRefusal): ApiError {
  return new ApiError('invalid_grant', { message: EXCHANGE_MESSAGES[refusal] });
}
