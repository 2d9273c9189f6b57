/**
 * One pino factory. Secrets (keys, tokens, codes, state, verifiers) are redacted by path, and
 * request URLs are logged without their query string, where the journey's secrets travel.
 */
import { type DestinationStream, type Logger, pino } from 'pino';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-service-session"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.authorization_code',
  '*.code_verifier',
  '*.session_token',
  '*.service_request',
  '*.service_code',
  '*.state',
  '*.request_token',
  '*.secret',
  '*.key',
];

export function createLogger(name: string, options: { level?: string } = {}, destination?: DestinationStream): Logger {
  return pino({ name, level: options.level ?? 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, destination);
}

/** Drops the query string: the journey's `service_request`, `service_code` and `state` travel there. */
export function pathOnly(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
