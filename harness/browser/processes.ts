/**
 * Chromium's processes below this one, read from /proc (Linux; elsewhere none): each with its
 * `--type` (its browser process has none: `browser`), CPU time and resident memory. The harness's
 * memory guard (chromium.ts) and the bench's CPU meter read them, the meter five times a second.
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

/** What a process's stat says: its parent, CPU time, start and resident memory. */
interface Stat {
  parent: number;
  ms: number;
  startTicks: number;
  rssBytes: number;
}

/**
 * The processes seen so far, by pid: their parent and start, which do not change while the pid
 * names the same process. A reading lists /proc and reads the stat of a pid it has not seen and
 * of each one below the root, not of the machine's every process (the guard and the bench's meter
 * read often, beside a machine of hundreds). A pid gone from the listing is forgotten; one handed
 * out again is told apart by its start. The command line is read until it names a type that is
 * final: a process forked by Chromium's zygote shows the zygote's until it names itself, and one
 * just forked to start another program shows its parent's (`browser`, or none) until it does.
 */
const seen = new Map<number, { parent: number; startTicks: number; type?: string }>();
/** The types a process keeps once its command line names one. */
const FINAL = new Set(['renderer', 'gpu-process', 'utility']);

function statOf(pid: number): Stat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { parent: Number(fields[1]), ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS, startTicks: Number(fields[19]), rssBytes: Number(fields[21]) * PAGE_BYTES };
  } catch {
    return undefined; // It exited meanwhile.
  }
}

/** Chromium's `--type` of a process (`browser` for its browser process), or null for another program. */
function typeOf(pid: number): string | null {
  let command = '';
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // It exited meanwhile.
  }
  // Only Chromium's: not other children (a bench row's busy processes).
  return /chrom/i.test(command) ? (/--type=([a-z-]+)/.exec(command)?.[1] ?? 'browser') : null;
}

export function chromiumProcesses(root = process.pid): Map<number, ChromiumProcess> {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return new Map();
  }
  const listed = new Set(entries.map(Number));
  for (const pid of seen.keys()) if (!listed.has(pid)) seen.delete(pid);
  const fresh = new Map<number, Stat>();
  for (const pid of listed) {
    if (seen.has(pid)) continue;
    const stat = statOf(pid);
    if (stat) seen.set(pid, { parent: stat.parent, startTicks: stat.startTicks });
    if (stat) fresh.set(pid, stat);
  }
  // Bounded by the processes known: parents remembered from different moments may make a loop.
  const isBelow = (pid: number): boolean => {
    let steps = seen.size;
    for (let at = seen.get(pid)?.parent; at !== undefined && at > 1 && steps > 0; at = seen.get(at)?.parent, steps -= 1) if (at === root) return true;
    return false;
  };
  const below = new Map<number, ChromiumProcess>();
  for (const pid of [...seen.keys()].filter(isBelow)) {
    const stat = fresh.get(pid) ?? statOf(pid);
    let known = seen.get(pid)!;
    if (!stat) continue;
    if (stat.startTicks !== known.startTicks || stat.parent !== known.parent) {
      // Another process under the same pid, or one its parent left: read as new.
      known = { parent: stat.parent, startTicks: stat.startTicks };
      seen.set(pid, known);
      if (!isBelow(pid)) continue;
    }
    const type = known.type ?? typeOf(pid);
    if (type !== null && FINAL.has(type)) known.type = type;
    if (type !== null) below.set(pid, { type, ms: stat.ms, startTicks: stat.startTicks, rssBytes: stat.rssBytes });
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
