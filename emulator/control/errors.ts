/** The control plane's errors as data (`/_emulator`, the sink included), on top of the plumbing's shared codes. */
import { type ErrorTable, HTTP_ERRORS, errorClass } from '../errors.js';
import type { Db } from '../store/db.js';
import { type Sink, findSink } from '../store/sinks.js';

export const CONTROL_ERRORS = {
  ...HTTP_ERRORS,
  /** The control plane refuses callers that are neither on loopback nor carry the control token. */
  forbidden: { status: 403, message: 'Not allowed.' },
  /** The control plane refuses what would pass one of the emulator's own limits (webhook endpoints). */
  limit_reached: { status: 422, message: 'A limit of the emulator was reached; see the message.' },
  /** A delivery to a built-in sink whose signature does not verify; the message says why. */
  invalid_signature: { status: 400, message: 'The signature does not verify.' },
} as const satisfies ErrorTable;

export class ControlError extends errorClass(CONTROL_ERRORS) {}

/** A path or body names a sink that does not exist: said with how to create it (the sink's pages and the webhooks' rows). */
export const noSink = (name: string | undefined) => new ControlError('not_found', { message: `No sink named "${name}". Create it with POST /_emulator/sinks {"name": "${name}"}.` });

/** The sink a path names, or the not-found error saying how to create it. */
export function sinkNamed(db: Db, name: string | undefined): Sink {
  const sink = name === undefined ? undefined : findSink(db, name);
  if (!sink) throw noSink(name);
  return sink;
}
