/**
 * Chromium's processes below this one, read from /proc (Linux; elsewhere none): each with its
 * `--type` (its browser process has none: `browser`), CPU time and resident memory. The harness's
 * memory guard (chromium.ts) and the bench's CPU meter read them.
 */
import { readFileSync, readdirSync } from 'node:fs';

/** Linux reports process CPU time in USER_HZ ticks, 100 per second on every usual build. */
const TICK_MS = 10;
/** Resident memory is counted in pages; 4 KiB on every usual build. */
const PAGE_BYTES = 4096;

export interface ChromiumProcess {
  type: string;
  /** CPU time, user and system. */
  ms: number;
  /** When it started (clock ticks since boot): a pid the kernel hands out again is another process. */
  startTicks: number;
  rssBytes: number;
}

export function chromiumProcesses(root = process.pid): Map<number, ChromiumProcess> {
  const all = new Map<number, { parent: number; ms: number; startTicks: number; rssBytes: number }>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return new Map();
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      all.set(Number(entry), { parent: Number(fields[1]), ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS, startTicks: Number(fields[19]), rssBytes: Number(fields[21]) * PAGE_BYTES });
    } catch {
      // It exited meanwhile.
    }
  }
  const below = new Map<number, ChromiumProcess>();
  const isBelow = (pid: number): boolean => {
    for (let at = all.get(pid)?.parent; at !== undefined && at > 1; at = all.get(at)?.parent) if (at === root) return true;
    return false;
  };
  for (const [pid, proc] of all) {
    if (!isBelow(pid)) continue;
    let command = '';
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      // It exited meanwhile.
    }
    // Only Chromium's: not other children (a bench row's busy processes).
    if (/chrom/i.test(command)) below.set(pid, { type: /--type=([a-z-]+)/.exec(command)?.[1] ?? 'browser', ms: proc.ms, startTicks: proc.startTicks, rssBytes: proc.rssBytes });
  }
  return below;
}

/** A process's resident memory now (/proc/PID/statm), or undefined once it has ended. */
export function residentBytes(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return undefined;
  }
}
