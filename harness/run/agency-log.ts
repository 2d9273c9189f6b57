/**
 * The agency's request log (config.agency_log), read once at the end of a run, for
 * logs.params_redacted. The file is the agency's: the run reads at most its last MAX_LOG_BYTES,
 * where this run's requests are, from the first whole line on.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export const MAX_LOG_BYTES = 16 * 1024 * 1024;

export interface AgencyLog {
  file: string;
  /** What was read; undefined when the file could not be read. */
  text: string | undefined;
  /** The bytes before `text` left unread (a log longer than the harness reads). */
  skipped?: number;
}

export function readAgencyLog(file: string, maxBytes = MAX_LOG_BYTES): AgencyLog {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.alloc(size - start);
    let read = 0;
    while (read < buffer.length) {
      const got = readSync(fd, buffer, read, buffer.length - read, start + read);
      if (got === 0) break;
      read += got;
    }
    if (start === 0) return { file, text: buffer.subarray(0, read).toString('utf8') };
    // The first line read is cut in two: what follows its end is whole (with no end in what was read, nothing is).
    const end = buffer.subarray(0, read).indexOf(0x0a);
    const whole = end === -1 ? read : end + 1;
    return { file, text: buffer.subarray(whole, read).toString('utf8'), skipped: start + whole };
  } catch {
    return { file, text: undefined };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
