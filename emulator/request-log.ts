/**
 * One log line per request, whatever the area: method, path, status and the error code of an error
 * answer, e.g. `GET /api/experience/v1/campaign 401 invalid_key`. The path has no query string
 * (the journey's secrets travel there) and secret-shaped text in it is redacted; headers and
 * bodies are not logged. `emulator logs` shows the message; the fields sit under `request`.
 * The line carries no secret-named field, so it skips pino's redaction by field name (logger.ts),
 * a walk of every logged object that would cost more than the rest of the line.
 */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { redactSecrets } from './domain/redaction.js';
import type { ErrorCodeLocals } from './errors.js';
import { pathOnly } from './logger.js';

export function requestLog(logger: Logger): RequestHandler {
  const lines = logger.child({}, { redact: [] });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
      const path = redactSecrets(pathOnly(req.originalUrl)) as string;
      const error = (res.locals as ErrorCodeLocals).errorCode;
      const request = error ? { method: req.method, path, status: res.statusCode, error, ms } : { method: req.method, path, status: res.statusCode, ms };
      lines.info({ request }, `${req.method} ${path} ${res.statusCode}${error ? ` ${error}` : ''}`);
    });
    next();
  };
}
