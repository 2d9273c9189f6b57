/** HTTP plumbing shared by the APIs: body parsing, JSON 404s, the one error writer. */
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { ApiError } from './experience/errors.js';

export const MAX_BODY = '100kb';

/** Requests with a body must be JSON (spec §4.1); a body-less POST parses as `{}`. */
export const jsonBody: RequestHandler[] = [
  (req, _res, next) => {
    const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
    if (hasBody && !req.is('application/json')) return next(new ApiError('unsupported_media_type'));
    next();
  },
  express.json({ limit: MAX_BODY, strict: false }),
];

export const notFound: RequestHandler = (req, _res, next) => {
  next(new ApiError('not_found', { message: `No endpoint ${req.method} ${req.baseUrl}${req.path}. See the README for the API's routes.` }));
};

/** Maps body-parser failures to documented errors. */
function fromBodyParser(error: { type?: string; status?: number; message?: string }): ApiError | undefined {
  switch (error.type) {
    case 'entity.too.large':
      return new ApiError('payload_too_large');
    case 'entity.parse.failed':
      return new ApiError('invalid_request', { message: 'The body is not valid JSON.', details: { '(body)': ['must be valid JSON'] } });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError('unsupported_media_type', { message: 'Send the body as UTF-8 JSON.' });
    default:
      return error.status && error.status < 500 ? new ApiError('invalid_request', { status: error.status, message: 'The request could not be read.' }) : undefined;
  }
}

export function errorWriter(logger: Logger, shape: (error: ApiError) => object = (error) => error.toJSON()): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const known = error instanceof ApiError ? error : fromBodyParser(error);
    if (!known) logger.error({ err: error, method: req.method, path: req.path }, 'unexpected error');
    const answer = known ?? new ApiError('internal_error');
    if (res.headersSent) return res.end();
    res.status(answer.status).set(answer.headers).json(shape(answer));
  };
}
