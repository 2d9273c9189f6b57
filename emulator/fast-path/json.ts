/** `res.json` without Express's per-answer parsing, and an answer whose JSON was made earlier (README.md). */
import type { Response } from 'express';
import type { AnsweredLocals } from '../http.js';

type ExpressJson = Response['json'];

/** Statuses whose answer Express sends without content (RFC 9110 §15.3.5, §15.3.6, §15.4.5). */
const NO_CONTENT = new Set([204, 205, 304]);

/**
 * Express's `res.json` answers through `res.send`, which parses and formats the Content-Type it has
 * just set, on every answer, and checks freshness for an ETag the emulator never sends. This one
 * writes the same bytes and headers directly. Express's own still answers what it handles
 * differently: a type already set, a body JSON has no text for, a conditional request, a status
 * that carries no content. Kept for the bench's guards (decisions/013).
 */
export function directJson(express: ExpressJson): ExpressJson {
  return function json(this: Response, body: unknown) {
    const text = JSON.stringify(body) as string | undefined;
    if (text === undefined || !writesDirectly(this)) {
      (this.locals as AnsweredLocals).answered = body;
      return express.call(this, body);
    }
    return writeJson(this, body, text);
  };
}

/** Answers `body` as `res.json` would, with `text`, its JSON made earlier (an answer kept in the cache). */
export function sendJson(res: Response, body: unknown, text: string): Response {
  return writesDirectly(res) ? writeJson(res, body, text) : res.json(body);
}

function writesDirectly(res: Response): boolean {
  const { headers } = res.req;
  return headers['if-none-match'] === undefined && headers['if-modified-since'] === undefined && !res.hasHeader('Content-Type') && !NO_CONTENT.has(res.statusCode);
}

function writeJson(res: Response, body: unknown, text: string): Response {
  (res.locals as AnsweredLocals).answered = body;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (res.req.method === 'HEAD') res.end();
  else res.end(text);
  return res;
}
