/**
 * The reporting API's errors as data: `{"error": "<code>"}`, with `details` (field → messages)
 * for validation. Errors raised by the shared HTTP plumbing (unknown route, body too large, not
 * JSON) keep their codes and take the same shape. @see spec §7, public reference §2
 */
import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { type Details, type ErrorShape, HttpError, errorWriter } from '../errors.js';

export const REPORTING_ERRORS = {
  /** No bearer token, or not a company's. */
  unauthorized: 401,
  /** No such resource, or one of a brand outside the caller's company: 404, never 403. */
  not_found: 404,
  /** The batch's CSV is not ready; retry after `Retry-After` or wait for `batch.export_ready`. @see spec §3 (batches) */
  batch_not_ready: 409,
  /** A parameter or body field is invalid; `details` names each one. */
  validation_failed: 422,
} as const;

export type ReportingCode = keyof typeof REPORTING_ERRORS;

export class ReportingError extends HttpError {
  declare readonly code: ReportingCode;

  constructor(code: ReportingCode, details?: Details, headers: Record<string, string> = {}) {
    super(code, REPORTING_ERRORS[code], code, details, headers);
  }
}

/** Spec §7's shape: the code and the fields' problems, no message. */
const reportingShape: ErrorShape = (error) => ({ error: error.code, ...(error.details ? { details: error.details } : {}) });

export function reportingErrors(logger: Logger): ErrorRequestHandler {
  return errorWriter(logger, reportingShape);
}
