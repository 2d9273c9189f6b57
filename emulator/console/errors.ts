/** The console API's errors as data (`/_emulator/console`), on top of the plumbing's shared codes. */
import { type ErrorTable, HTTP_ERRORS, errorClass } from '../errors.js';

export const CONSOLE_ERRORS = {
  ...HTTP_ERRORS,
  /** Approval asked for before the checklist is complete or the promotion is live; `details` says what is missing. */
  approval_refused: { status: 409, message: 'Not approved yet.' },
  /** A revoked key cannot be rotated. */
  key_revoked: { status: 409, message: 'That key is revoked and cannot be rotated; create a new key instead.' },
  /** Another harness run is verifying this promotion; `details` names it (id, pid, host, started_at). */
  harness_run_active: { status: 409, message: 'Another harness run is under way on this promotion.' },
} as const satisfies ErrorTable;

export class ConsoleError extends errorClass(CONSOLE_ERRORS) {}

/** A refusal's field in words, as the API's message and the dashboard show it: `production_callback` is "production callback". */
export const fieldWords = (name: string) => name.replace('_', ' ');
