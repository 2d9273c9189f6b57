/**
 * One log line per request, whatever the area: method, path, status and the error code of an error
 * answer, e.g. `GET /api/experience/v1/campaign 401 invalid_key`. The path has no query string
 * (the journey's secrets travel there) and secret-shaped text in it is redacted; headers and
 * bodies are not logged. `emulator logs` shows the message; the fields sit under `request`.
 * The line carries no secret-named field, so it skips pino's redaction by field name (logger.ts),
 * a walk of every logged object that would cost more than the rest of the line.
 *
 * A refusal repeated on a route (a backend looping with a revoked key) is summarised: its 1st,
 * 10th, 100th, ... time is logged, saying how many so far, until the route answers with a success.
 * Each kind of refusal is counted on its own, so kinds that alternate are summarised too.
 */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { redactSecrets } from './domain/redaction.js';
import type { ErrorCodeLocals } from './errors.js';
import { pathOnly } from './logger.js';

/** Routes whose refusals are counted at once, and kinds of refusal per route; past either, the counts start over (a bound on memory). */
const ROUTES_COUNTED = 1000;
const KINDS_COUNTED = 32;

export function requestLog(logger: Logger): RequestHandler {
  const lines = logger.child({}, { redact: [] });
  const refusals = new Map<string, Map<string, number>>();
  /** How many times this route gave this refusal since it last succeeded, counting this one; 0 for an answer that is none. */
  const timesSinceSuccess = (route: string, status: number, error: string | undefined): number => {
    if (status < 400) {
      refusals.delete(route);
      return 0;
    }
    const refusal = `${status} ${error ?? ''}`;
    let kinds = refusals.get(route);
    if (!kinds) {
      if (refusals.size >= ROUTES_COUNTED) refusals.clear();
      refusals.set(route, (kinds = new Map()));
    }
    if (!kinds.has(refusal) && kinds.size >= KINDS_COUNTED) kinds.clear();
    const times = (kinds.get(refusal) ?? 0) + 1;
    kinds.set(refusal, times);
    return times;
  };
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
      const path = redactSecrets(pathOnly(req.originalUrl)) as string;
      const error = (res.locals as ErrorCodeLocals).errorCode;
      const times = timesSinceSuccess(`${req.method} ${path}`, res.statusCode, error);
      if (times > 1 && !powerOfTen(times)) return;
      const request = { method: req.method, path, status: res.statusCode, ...(error ? { error } : {}), ms, ...(times > 1 ? { times } : {}) };
      lines.info({ request }, `${req.method} ${path} ${res.statusCode}${error ? ` ${error}` : ''}${times > 1 ? ` (this refusal ${times} times on this route since it last succeeded; logged at 10, 100, 1000, ...)` : ''}`);
    });
    next();
  };
}

function powerOfTen(n: number): boolean {
  let rest = n;
  while (rest % 10 === 0) rest /= 10;
  return rest === 1;
}
