/**
 * One error base for every area, and the one writer that answers with it.
 *
 * Each area keeps its codes as data: a table of code → status and message (`HTTP_ERRORS` below
 * for the plumbing every area shares, then experience/errors.ts, reporting/errors.ts,
 * control/errors.ts, console/errors.ts, journey/errors.ts), and its error class made from it by
 * `errorClass`. Routes throw by code, and a code answers with exactly the status of its table, or
 * one of the `also` statuses its doc comment explains. The writer sets the status and headers and
 * the area's body: JSON `{error, message, details?}`, the reporting API's spec §7 shape, or the
 * journey's page. The error handler turns anything that is not an `HttpError` into a generic 500
 * and logs the rest.
 */
import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Logger } from 'pino';

export interface ErrorSpec {
  readonly status: number;
  readonly message: string;
  /** Other statuses the code answers with, each in a case the code's doc comment names. */
  readonly also?: readonly number[];
}

export type ErrorTable = Readonly<Record<string, ErrorSpec>>;

/** Field → the problems with it. */
export type Details = Record<string, string[]>;

export interface ErrorOptions {
  message?: string;
  details?: Details;
  headers?: Record<string, string>;
  /** One of the code's `also` statuses. */
  status?: number;
}

/** The base of every error an area answers with: its code, status, public message, details and headers. */
export class HttpError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: Details,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toJSON() {
    return { error: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }
}

/** Every status a code answers with: its own, then its `also`. */
export function statusesOf(spec: ErrorSpec): number[] {
  return [spec.status, ...(spec.also ?? [])];
}

/** The error class of one area's table: `new AreaError('code', { message, details })`. */
export function errorClass<Table extends ErrorTable>(table: Table) {
  return class extends HttpError {
    declare readonly code: keyof Table & string;

    constructor(code: keyof Table & string, options: ErrorOptions = {}) {
      const spec = table[code]!;
      const status = options.status ?? spec.status;
      if (status !== spec.status && !spec.also?.includes(status)) throw new Error(`The error ${code} never answers ${status}.`);
      super(code, status, options.message ?? spec.message, options.details, options.headers);
    }
  };
}

/** The codes of the HTTP plumbing every area shares: body reading, unknown routes, the unexpected. */
export const HTTP_ERRORS = {
  /** Malformed request: bad JSON, wrong types, forbidden or unknown fields. */
  invalid_request: { status: 400, message: 'The request is malformed; see details.' },
  payload_too_large: { status: 413, message: 'The request body is larger than 100 KB.' },
  /** The body did not arrive in time after the headers. */
  request_timeout: { status: 408, message: 'The request body did not arrive in time.' },
  unsupported_media_type: { status: 415, message: 'Requests with a body must carry Content-Type: application/json.' },
  not_found: { status: 404, message: 'No such endpoint.' },
  internal_error: { status: 500, message: 'Something went wrong inside the emulator; the log has the details.' },
  /** The disk holding the data folder is full: the request changed nothing; it works again once there is room. */
  storage_full: { status: 507, message: 'The disk holding the emulator\'s data folder is full, so nothing was changed; free some space and try again.' },
} as const satisfies ErrorTable;

export class PlumbingError extends errorClass(HTTP_ERRORS) {}

/**
 * An answer given before the request's body was all read ends the connection, rather than reading
 * the rest: it may be 10 GB, or never come.
 */
export function closeIfUnread(req: Request, res: Response): void {
  if (!req.complete && !res.headersSent) res.set('Connection', 'close');
}

/** How an area's errors look on the wire, once their status and headers are set: `{error, message, details?}` unless the area says otherwise. */
export type ErrorBody = (res: Response, error: HttpError) => void;

const JSON_BODY: ErrorBody = (res, error) => void res.json(error.toJSON());

/** Where an error answer leaves its code for the request log and the interaction log (never its message). */
export interface ErrorCodeLocals {
  errorCode?: string;
}

/** Writes one error answer: status, headers, body. Every error an area answers goes through here. */
export function writeError(res: Response, error: HttpError, body: ErrorBody = JSON_BODY): void {
  if (res.headersSent) return void res.end();
  (res.locals as ErrorCodeLocals).errorCode = error.code;
  body(res.status(error.status).set(error.headers), error);
}

/** Maps what express's raw body parser (the webhook sink's: the JSON areas read with http.ts) passes on to the shared codes. */
function fromBodyParser(error: { type?: string; status?: number }): HttpError | undefined {
  if (error.type === 'entity.too.large') return new PlumbingError('payload_too_large');
  if (error.type === 'encoding.unsupported') return new PlumbingError('unsupported_media_type', { message: 'Send the body as it is, or with Content-Encoding gzip, deflate or br.' });
  return error.status && error.status < 500 ? new PlumbingError('invalid_request', { message: 'The request could not be read.' }) : undefined;
}

/** SQLite's and the file system's word for a full disk (or quota). */
const FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/** A write the disk had no room for, as the 507 it answers with; the process goes on and recovers once there is room. */
export function storageFailure(error: unknown): HttpError | undefined {
  return FULL.has((error as { code?: string } | undefined)?.code ?? '') ? new PlumbingError('storage_full') : undefined;
}

/** The error handler every JSON area ends with. */
export function errorWriter(logger: Logger, body?: ErrorBody): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const full = storageFailure(error);
    if (full) logger.error({ method: req.method, path: req.path }, 'the disk is full: a request changed nothing');
    const known = error instanceof HttpError ? error : (full ?? fromBodyParser(error as { type?: string; status?: number }));
    if (!known) logger.error({ err: error, method: req.method, path: req.path }, 'unexpected error');
    closeIfUnread(req, res);
    writeError(res, known ?? new PlumbingError('internal_error'), body);
  };
}
