/** HTTP plumbing shared by the APIs: body parsing, JSON 404s, the one error writer. */
import express, { type ErrorRequestHandler, type NextFunction, type Request, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { ApiError } from './experience/errors.js';

/** Bodies over 100 KB are 413 (DESIGN.md, errors). */
const MAX_BODY_BYTES = 100 * 1024;

const parseJson = express.json({ limit: MAX_BODY_BYTES, strict: false });

/** Content types the quick path reads itself; any other JSON type (charsets, parameters) goes to body-parser. */
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8']);

/**
 * Requests with a body must be UTF-8 JSON (spec §4.1). The usual request (plain UTF-8 JSON, a
 * Content-Length within the limit, no Content-Encoding) is read here, for a fraction of what
 * body-parser costs; anything else (chunked, compressed, other charsets, too large) goes to
 * body-parser, whose errors `fromBodyParser` maps.
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  const { headers } = req;
  const length = headers['content-length'];
  const chunked = headers['transfer-encoding'] !== undefined;
  const type = headers['content-type']?.toLowerCase();
  if ((length === undefined && !chunked) || parsed(req)) return next();
  const charset = charsetOf(type);
  if (charset !== undefined && !UTF8.has(charset)) {
    return next(new ApiError('unsupported_media_type', { message: `Send the body as UTF-8 JSON, with no charset or charset=utf-8 (not ${charset.slice(0, 40)}).` }));
  }
  const declared = Number(length);
  const plain = !chunked && declared <= MAX_BODY_BYTES && type !== undefined && PLAIN_JSON.has(type) && (headers['content-encoding'] ?? 'identity') === 'identity';
  if (plain) return readPlainJson(req, declared, withinDepth(req, next));
  if ((declared > 0 || chunked) && !req.is('application/json')) return next(new ApiError('unsupported_media_type'));
  parseJson(req, res, withinDepth(req, next));
};

/** JSON travels as UTF-8 (RFC 8259 §8.1): any other charset is refused, whatever the bytes. */
const UTF8 = new Set(['utf-8']);

/** The charset parameter of a content type, lower-case and unquoted. */
function charsetOf(type: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*("?)([^";]*)\1/i.exec(type ?? '');
  return match?.[2]!.trim().toLowerCase();
}

/** Deeper bodies are refused, and not kept: the interaction log and the control plane serialize bodies recursively. */
const MAX_BODY_DEPTH = 32;

function withinDepth(req: Request, next: NextFunction): NextFunction {
  return (error?: unknown) => {
    if (error || !nestedDeeperThan(req.body, MAX_BODY_DEPTH)) return next(error);
    req.body = undefined;
    next(new ApiError('invalid_request', { message: 'The body nests too deeply.', details: { '(body)': [`must not nest deeper than ${MAX_BODY_DEPTH} levels`] } }));
  };
}

/** Walks with its own stack, as a body deep enough to matter would overflow a recursive walk. */
function nestedDeeperThan(body: unknown, limit: number): boolean {
  const stack: [value: unknown, depth: number][] = [[body, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth === limit) return true;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return false;
}

/** body-parser's mark of a body already read (the faults hook reads those it matches on). */
type ParsedRequest = Request & { _body?: boolean };
const parsed = (req: Request) => (req as ParsedRequest)._body === true;

/** As body-parser reads it: UTF-8 without its BOM, an empty body as `{}`, any JSON value (not strict). */
function readPlainJson(req: Request, declared: number, next: NextFunction): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const settle = (error?: unknown) => {
    if (settled) return;
    settled = true;
    next(error);
  };
  req.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
  });
  req.once('error', (error) => settle(Object.assign(error, { status: 400, type: 'request.aborted' })));
  req.once('end', () => {
    if (size !== declared) return settle({ status: 400, type: 'request.size.invalid' });
    let text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)).toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    try {
      req.body = text.length === 0 ? {} : (JSON.parse(text) as unknown);
      (req as ParsedRequest)._body = true;
    } catch {
      return settle({ status: 400, type: 'entity.parse.failed' });
    }
    settle();
  });
}

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

/**
 * Runs handlers one after another inside one router layer, handing what they pass on or throw to
 * `onError`. Express gives each handler of `app.use(path, ...handlers)` a layer of its own, whose
 * path matching and URL rewriting cost more than most handlers do. For synchronous handlers only.
 */
export function series(handlers: RequestHandler[], onError: ErrorRequestHandler): RequestHandler {
  return (req, res, done) => {
    let at = 0;
    const next = (error?: unknown): void => {
      if (error) return void onError(error, req, res, done);
      const handler = handlers[at++];
      if (!handler) return done();
      try {
        void handler(req, res, next);
      } catch (thrown) {
        next(thrown ?? new Error('a handler threw nothing'));
      }
    };
    next();
  };
}

/** A handler built on its first request (e.g. from a module imported then); requests meanwhile wait for it. */
export function lazy(build: () => Promise<RequestHandler>): RequestHandler {
  let handler: RequestHandler | undefined;
  let building: Promise<void> | undefined;
  return (req, res, next) => {
    if (handler) return handler(req, res, next);
    building ??= build().then((built) => void (handler = built));
    building.then(() => handler!(req, res, next)).catch(next);
  };
}
