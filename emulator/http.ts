/** HTTP plumbing shared by the APIs: body reading, JSON 404s, the request path's helpers. */
import type { NextFunction, Request, RequestHandler } from 'express';
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { PlumbingError } from './errors.js';
import { duplicateKey } from './json-keys.js';

/** Bodies over 100 KB are 413. */
export const MAX_BODY_BYTES = 100 * 1024;

/** How long a body may take to arrive after its headers, unless `app.locals.bodyTimeoutMs` says otherwise: 100 KB needs far less on any link. */
export const BODY_TIMEOUT_MS = 10_000;

/** What app.ts puts in `app.locals` for the body reader. */
export interface BodyLocals {
  bodyTimeoutMs: number;
}

/** Content-Encodings a body may come in; `identity` is read as it is. */
const DECODERS: Record<string, (() => Readable & NodeJS.WritableStream) | null> = {
  identity: null, gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress,
};

/** JSON travels as UTF-8 (RFC 8259 §8.1): any other charset is refused, whatever the bytes. */
const UTF8 = new Set(['utf-8']);
/** What almost every client sends, taken without parsing the media type. */
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8']);

/**
 * Requests with a body must be UTF-8 JSON (spec §4.1). Read here, by a reader that refuses as soon
 * as it can: from the headers, a body of another type or charset, in an unknown encoding, or
 * announced over 100 KB; while reading, a body growing past 100 KB (also once decompressed); and a
 * body that does not arrive within the timeout (408). The error writer closes the connection
 * after a refusal that leaves a body unread (errors.ts `closeIfUnread`), so nothing more is read from it.
 */
export const jsonBody: RequestHandler = (req, _res, next) => {
  const { headers } = req;
  const chunked = headers['transfer-encoding'] !== undefined;
  if ((headers['content-length'] === undefined && !chunked) || parsed(req)) return next();
  const declared = Number(headers['content-length'] ?? 0);
  if (!PLAIN_JSON.has(headers['content-type']?.toLowerCase() ?? '')) {
    if (!req.is('application/json')) return next(declared > 0 || chunked ? new PlumbingError('unsupported_media_type') : undefined);
    const charset = charsetOf(headers['content-type']);
    if (charset !== undefined && !UTF8.has(charset)) {
      return next(new PlumbingError('unsupported_media_type', { message: `Send the body as UTF-8 JSON, with no charset or charset=utf-8 (not ${charset.slice(0, 40)}).` }));
    }
  }
  if (declared > MAX_BODY_BYTES) return next(new PlumbingError('payload_too_large'));
  const encoding = (headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const decoder = DECODERS[encoding];
  if (decoder === undefined) {
    return next(new PlumbingError('unsupported_media_type', { message: `Send the body as it is, or with Content-Encoding gzip, deflate or br (not ${encoding.slice(0, 40)}).` }));
  }
  const timeoutMs = (req.app.locals as Partial<BodyLocals>).bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  readJson(req, decoder?.(), timeoutMs, withinDepth(req, next));
};

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
    next(new PlumbingError('invalid_request', { message: 'The body nests too deeply.', details: { '(body)': [`must not nest deeper than ${MAX_BODY_DEPTH} levels`] } }));
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

/** The mark of a body already read (the faults hook reads those it matches on), as body-parser sets it. */
type ParsedRequest = Request & { _body?: boolean };
const parsed = (req: Request) => (req as ParsedRequest)._body === true;

/**
 * UTF-8 without its BOM, an empty body as `{}`, any JSON value (not only objects and arrays).
 * Bytes that are not UTF-8 are refused, not replaced with U+FFFD; so is a key named twice in one
 * object (json-keys.ts).
 */
function readJson(req: Request, decoder: (Readable & NodeJS.WritableStream) | undefined, timeoutMs: number, next: NextFunction): void {
  const source: Readable = decoder ? req.pipe(decoder) : req;
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const settle = (error?: unknown) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    if (error && decoder) {
      req.unpipe(decoder);
      decoder.destroy();
    }
    next(error);
  };
  const timer = setTimeout(() => settle(new PlumbingError('request_timeout', { message: `The body did not arrive within ${timeoutMs / 1000} s of the headers.` })), timeoutMs);
  source.on('data', (chunk: Buffer) => {
    if (settled) return;
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return settle(new PlumbingError('payload_too_large'));
    chunks.push(chunk);
  });
  source.once('error', () => settle(new PlumbingError('invalid_request', { message: decoder ? 'The body could not be decompressed.' : 'The request could not be read.' })));
  source.once('end', () => {
    if (settled) return;
    const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    if (!isUtf8(bytes)) return settle(new PlumbingError('invalid_request', { message: 'The body is not valid UTF-8.', details: { '(body)': ['must be UTF-8 JSON'] } }));
    let text = bytes.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    let body: unknown;
    try {
      body = text.length === 0 ? {} : (JSON.parse(text) as unknown);
    } catch {
      return settle(new PlumbingError('invalid_request', { message: 'The body is not valid JSON.', details: { '(body)': ['must be valid JSON'] } }));
    }
    const twice = duplicateKey(text);
    if (twice !== undefined) {
      const key = JSON.stringify(twice.slice(0, 40));
      return settle(new PlumbingError('invalid_request', { message: `The body names the key ${key} twice in one object.`, details: { '(body)': [`must not name a key twice in one object (${key})`] } }));
    }
    req.body = body;
    (req as ParsedRequest)._body = true;
    settle();
  });
}

export const notFound: RequestHandler = (req, _res, next) => next(noEndpoint(req));

/** The error of a request no endpoint answers, however deep the router that finds it. */
export function noEndpoint(req: Request): PlumbingError {
  return new PlumbingError('not_found', { message: `No endpoint ${req.method} ${req.baseUrl}${req.path}. See the README for the API's routes.` });
}

/**
 * No route answers OPTIONS: the emulator sends no CORS headers (spec §1), so there is no preflight
 * to answer, and OPTIONS is refused as any method without an endpoint is. First in each area, as
 * Express's routers would otherwise answer it themselves with 200 and the route's methods.
 */
export const noOptions: RequestHandler = (req, res, next) => (req.method === 'OPTIONS' ? notFound(req, res, next) : next());

/** The credential of an `Authorization: Bearer <credential>` header (the agency key, the reporting token, the control token). */
export function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** A handler built on its first request from what `load` gives (modules imported then); requests meanwhile wait for it. */
export function lazy<Loaded>(load: () => Promise<Loaded>, build: (loaded: Loaded) => RequestHandler): RequestHandler {
  let handler: RequestHandler | undefined;
  let building: Promise<void> | undefined;
  return (req, res, next) => {
    if (handler) return handler(req, res, next);
    building ??= load().then((loaded) => void (handler = build(loaded)));
    building.then(() => handler!(req, res, next)).catch(next);
  };
}
