/**
 * One pino factory. Secrets (keys, tokens, codes, state, verifiers) are redacted by path: the
 * headers that carry them, and the secret field names the interaction log redacts too
 * (domain/redaction.ts) in any logged object. Request URLs are logged without their query string,
 * where the journey's secrets travel.
 */
import { closeSync, fstatSync, openSync, renameSync, writeSync } from 'node:fs';
import { type DestinationStream, type Logger, pino } from 'pino';
import { REDACTED, SECRET_FIELDS } from './domain/redaction.js';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-service-session"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.map((name) => `*.${name}`),
];

/** What pino-pretty leaves out, in the terminal and in `emulator logs`: a request line's message says it all. */
export const PRETTY_IGNORE = 'pid,hostname,name,request';

export function createLogger(name: string, options: { level?: string } = {}, destination?: DestinationStream): Logger {
  return pino({ name, level: options.level ?? 'info', redact: { paths: REDACT_PATHS, censor: REDACTED } }, destination);
}

/** Drops the query string: the journey's `service_request`, `service_code` and `state` travel there. */
export function pathOnly(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The log file's bound: past it, the file becomes `emulator.log.1` (replacing the one before) and a new one starts. */
export const MAX_LOG_BYTES = 10 * 1024 * 1024;

/**
 * The data folder's log file, written a line at a time as it comes (what pino's synchronous
 * destination does), at most MAX_LOG_BYTES before it rotates: with the one rotated file kept, the
 * log takes at most twice that. A line the disk has no room for (ENOSPC) is dropped, not thrown:
 * pino's own destination emitted it as an 'error' nobody could catch, which ended the process.
 * Once lines are written again, one says how many were dropped.
 */
export function logFile(path: string, maxBytes = MAX_LOG_BYTES): DestinationStream & { close(): void } {
  let fd = openSync(path, 'a');
  let size = fstatSync(fd).size;
  let dropped = 0;
  const rotate = () => {
    closeSync(fd);
    let keep = true;
    try {
      renameSync(path, `${path}.1`);
    } catch {
      keep = false;
    }
    // A file that cannot be moved aside is started over: the bound holds either way.
    fd = openSync(path, keep ? 'a' : 'w');
    size = 0;
  };
  const writeAll = (text: string) => {
    const bytes = Buffer.from(text);
    if (size > 0 && size + bytes.length > maxBytes) rotate();
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    size += bytes.length;
  };
  return {
    write(line: string) {
      try {
        if (dropped > 0) {
          writeAll(`${JSON.stringify({ level: 40, time: Math.round(performance.timeOrigin + performance.now()), name: 'emulator', msg: `${dropped} log lines were dropped: the disk was full` })}\n`);
          dropped = 0;
        }
        writeAll(line);
      } catch {
        dropped += 1;
      }
    },
    close: () => closeSync(fd),
  };
}
