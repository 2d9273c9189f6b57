/**
 * The experience API's errors as data: spec §4.2's table and the API reference's key errors, on top of
 * the plumbing's shared codes (errors.ts). Routes throw by code.
 */
import { KEY_LIFETIME_MS, inWords } from '../domain/limits.js';
import { type ErrorTable, HTTP_ERRORS, errorClass } from '../errors.js';

export const EXPERIENCE_ERRORS = {
  ...HTTP_ERRORS,
  /** Missing or unknown agency key. */
  invalid_key: { status: 401, message: 'The agency key is missing or unknown.' },
  /** Key past its lifetime. @see spec §2.1 */
  key_expired: { status: 401, message: `The agency key has expired; keys last ${inWords(KEY_LIFETIME_MS)}. Rotate to a new key.` },
  /** Key revoked by the brand. */
  key_revoked: { status: 401, message: 'The agency key was revoked by the brand.' },
  /** Session missing, unknown, expired, revoked or exchanged by another key. @see spec §4.2 */
  invalid_session: { status: 401, message: 'The session is invalid or expired. Ask the customer to rescan the pack; do not retry with another identity.' },
  /** The code exchange failed: unknown, expired or used code, or a verifier that does not match. */
  invalid_grant: { status: 400, message: 'The authorization code is invalid, expired or already used, or the verifier does not match. Restart from the pack scan.' },
  /** The key's environment does not allow this call. */
  wrong_environment: { status: 403, message: 'This call is not available with this key\'s environment.' },
  /** Campaign unavailable in this location. @see spec §4.2 */
  ineligible: { status: 403, message: 'The campaign is unavailable in this location.' },
  /** The pack was already entered. @see spec §4.2 */
  already_entered: { status: 409, message: 'This pack cannot be entered again.' },
  /** Terms not accepted, stale terms version, or age not confirmed. @see spec §4.2 */
  consent_required: { status: 422, message: 'Refresh the session\'s terms and ask the customer to accept them.' },
  /**
   * Campaign not live, paused, or over: 409 while it may come back, 410 once it has ended.
   * @see spec §4.2, decisions/003
   */
  unavailable: { status: 409, also: [410], message: 'The promotion is unavailable. Show an unavailable state and a route back to the Rewards page.' },
  /** @see spec §8 */
  rate_limited: { status: 429, message: 'Too many requests; respect Retry-After and back off.' },
} as const satisfies ErrorTable;

export type ErrorCode = keyof typeof EXPERIENCE_ERRORS;

export class ApiError extends errorClass(EXPERIENCE_ERRORS) {}
