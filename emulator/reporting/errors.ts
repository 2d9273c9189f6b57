/**
 * The reporting API's errors as data, on the wire as `{"error": "<code>"}` with `details` (field →
 * messages) for validation: spec §7's shape carries no message, so the messages here are for the
 * reader. Errors raised by the shared HTTP plumbing (unknown route, body too large, not JSON) keep
 * their codes and take the same shape. @see spec §7, public reference §2
 */
import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { type ErrorBody, type ErrorTable, errorClass, errorWriter } from '../errors.js';
import type { Batch } from '../store/batches.js';
import type { Brand } from '../store/promotions.js';
import type { SkuRefusal } from '../use-cases/reporting/sku-create.js';

export const REPORTING_ERRORS = {
  /** No bearer token, or not a company's. */
  unauthorized: { status: 401, message: 'Send the company\'s API token as "Authorization: Bearer <API_TOKEN>".' },
  /** No such resource, or one of a brand outside the caller's company: 404, never 403. */
  not_found: { status: 404, message: 'No such resource for this company.' },
  /** The batch's CSV is not ready; retry after `Retry-After` or wait for `batch.export_ready`. @see spec §3 (batches) */
  batch_not_ready: { status: 409, message: 'The batch file is not ready yet.' },
  /** A parameter or body field is invalid; `details` names each one. */
  validation_failed: { status: 422, message: 'A parameter or field is invalid; see details.' },
} as const satisfies ErrorTable;

export type ReportingCode = keyof typeof REPORTING_ERRORS;

export class ReportingError extends errorClass(REPORTING_ERRORS) {}

/** A refused SKU's error: the field it is about, and why. */
export function skuRefusal(reason: SkuRefusal, brand: Brand): ReportingError {
  const problem = reason === 'prefix_outside_brand' ? `must start with the brand prefix and a hyphen: ${brand.prefix}-` : 'is already used by another SKU';
  return new ReportingError('validation_failed', { details: { prefix: [problem] } });
}

/** A batch whose file is not ready: how far it is, and when to ask again. */
export function notReady(batch: Batch): ReportingError {
  const progress = batch.state === 'generating' ? `generating: ${batch.generated} of ${batch.quantity} codes` : 'codes generated; the file is being prepared';
  return new ReportingError('batch_not_ready', { details: { state: [progress] }, headers: { 'Retry-After': '1' } });
}

/** Spec §7's shape: the code and the fields' problems, no message. */
const reportingBody: ErrorBody = (res, error) => void res.json({ error: error.code, ...(error.details ? { details: error.details } : {}) });

export function reportingErrors(logger: Logger): ErrorRequestHandler {
  return errorWriter(logger, reportingBody);
}
