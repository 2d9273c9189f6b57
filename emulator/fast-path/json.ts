/**
 * An answer as a value (status, headers, JSON body), written on the wire without Express's
 * per-answer parsing, and read back by the call's record (README.md).
 */
import type { Response } from 'express';

/** An answer as a value: what an experience endpoint returns, written once the turn commits (held-answer.ts). */
export interface Answer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** The body's JSON, when it was made earlier (an answer kept in the cache). */
  readonly text?: string;
}

type ExpressJson = Response['json'];

/** Where a response keeps the answer it was given: written by `writeAnswer` only, read by `answerOf` only. */
const ANSWER = Symbol('answer');
type Answered = Response & { [ANSWER]?: Answer };

/** Statuses whose answer Express sends without content (RFC 9110 §15.3.5, §15.3.6, §15.4.5). */
const NO_CONTENT = new Set([204, 205, 304]);

/** The answer `res` was given (by `writeAnswer`, or by `res.json` through `directJson`), for the call's record. */
export function answerOf(res: Response): Answer | undefined {
  return (res as Answered)[ANSWER];
}

/**
 * Writes `answer` on `res`. Express's `res.json` answers through `res.send`, which parses and
 * formats the Content-Type it has just set, on every answer, and checks freshness for an ETag the
 * emulator never sends. This writes the same bytes and headers directly; Express's own still writes
 * what it handles differently: a type already set, a body JSON has no text for, a conditional
 * request, a status that carries no content. Kept for the bench's guards (decisions/013).
 */
export function writeAnswer(res: Response, answer: Answer, express: ExpressJson = res.json): void {
  (res as Answered)[ANSWER] = answer;
  res.statusCode = answer.status;
  if (answer.headers) res.set(answer.headers);
  const text = answer.text ?? (JSON.stringify(answer.body) as string | undefined);
  if (text === undefined || !writesDirectly(res)) return void express.call(res, answer.body);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (res.req.method === 'HEAD') res.end();
  else res.end(text);
}

/** `res.json` as `writeAnswer` with the response's status: every JSON answer of the app is then an answer `answerOf` reads. */
export function directJson(express: ExpressJson): ExpressJson {
  return function json(this: Response, body: unknown) {
    writeAnswer(this, { status: this.statusCode, body }, express);
    return this;
  };
}

function writesDirectly(res: Response): boolean {
  const { headers } = res.req;
  return headers['if-none-match'] === undefined && headers['if-modified-since'] === undefined && !res.hasHeader('Content-Type') && !NO_CONTENT.has(res.statusCode);
}
