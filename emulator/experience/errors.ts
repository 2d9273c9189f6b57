/**
 * The experience API's errors as data: spec §4.2's table and DESIGN.md's conventions. Routes
 * throw by code; one writer turns anything else into a generic 500 and logs the rest.
 */
export const EXPERIENCE_ERRORS = {
  /** Malformed request: bad JSON, wrong types, forbidden or unknown fields. DESIGN.md */
  invalid_request: { status: 400, message: 'The request is malformed; see details.' },
  /** Missing or unknown agency key. DESIGN.md */
  invalid_key: { status: 401, message: 'The agency key is missing or unknown.' },
  /** Key older than 90 days. @see spec §2.1 */
  key_expired: { status: 401, message: 'The agency key has expired; keys last 90 days. Rotate to a new key.' },
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
  /** Campaign not live, paused, or over: 409 while it may come back, 410 once it has ended. @see spec §4.2 */
  unavailable: { status: 409, message: 'The promotion is unavailable. Show an unavailable state and a route back to the Rewards page.' },
  /** @see spec §8 */
  rate_limited: { status: 429, message: 'Too many requests; respect Retry-After and back off.' },
  payload_too_large: { status: 413, message: 'The request body is larger than 100 KB.' },
  /** The body did not arrive in time after the headers. */
  request_timeout: { status: 408, message: 'The request body did not arrive in time.' },
  unsupported_media_type: { status: 415, message: 'Requests with a body must carry Content-Type: application/json.' },
  /** The control plane refuses callers that are neither on loopback nor carry the control token. */
  forbidden: { status: 403, message: 'Not allowed.' },
  not_found: { status: 404, message: 'No such endpoint.' },
  /** The control plane refuses what would pass one of the emulator's own limits (webhook endpoints). */
  limit_reached: { status: 422, message: 'A limit of the emulator was reached; see the message.' },
  method_not_allowed: { status: 405, message: 'This endpoint does not accept that method.' },
  internal_error: { status: 500, message: 'Something went wrong inside the emulator; the log has the details.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof EXPERIENCE_ERRORS;

export class ApiError extends Error {
  readonly status: number;
  readonly details: Record<string, string[]> | undefined;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    options: { status?: number; message?: string; details?: Record<string, string[]>; headers?: Record<string, string> } = {},
  ) {
    super(options.message ?? EXPERIENCE_ERRORS[code].message);
    this.status = options.status ?? EXPERIENCE_ERRORS[code].status;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  toJSON() {
    return { error: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }
}
