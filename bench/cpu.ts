/**
 * CPU time during a measurement, from /proc (Linux): the server child's own, the load generator's,
 * and what the rest of the machine used meanwhile. CPU time per request barely moves when other
 * processes compete for the 2 cores, so it stays comparable when requests per second do not; the
 * share the others took says how noisy a row was.
 */
import { readFileSync } from 'node:fs';
import { chromiumProcesses } from '../harness/browser/processes.js';

/** Linux reports process and machine CPU time in USER_HZ ticks, 100 per second on every usual build. */
const TICK_MS = 10;

export interface CpuSnapshot {
  machineBusyMs: number;
  serverMs: number;
  selfMs: number;
  at: number;
}

export interface CpuUse {
  /** Server child CPU time divided by responses, in microseconds. */
  serverUsPerRequest: number;
  /** Server CPU time over wall time: 1.0 is one core fully busy. */
  serverCores: number;
  /** CPU that neither the server nor the load generator used, over wall time, in cores. */
  otherCores: number;
}

export function cpuSnapshot(serverPid: number): CpuSnapshot {
  const usage = process.cpuUsage();
  return { machineBusyMs: machineBusyMs(), serverMs: processMs(serverPid), selfMs: (usage.user + usage.system) / 1000, at: performance.now() };
}

/** CPU use over the spans (before, after) of a server's turns, taken together. */
export function cpuOver(spans: Array<[CpuSnapshot, CpuSnapshot]>, responses: number): CpuUse {
  let wallMs = 0;
  let serverMs = 0;
  let othersMs = 0;
  for (const [before, after] of spans) {
    const server = after.serverMs - before.serverMs;
    wallMs += after.at - before.at;
    serverMs += server;
    othersMs += after.machineBusyMs - before.machineBusyMs - server - (after.selfMs - before.selfMs);
  }
  return { serverUsPerRequest: (serverMs * 1000) / Math.max(1, responses), serverCores: serverMs / wallMs, otherCores: Math.max(0, othersMs) / wallMs };
}

/**
 * CPU the rest of the machine used between two calls, in cores: machine busy time less this
 * process's and its exited children's (utime, stime, cutime, cstime of /proc/self/stat).
 */
export function otherCoresMeter(): () => number {
  const start = { machine: machineBusyMs(), family: familyMs(), at: performance.now() };
  return () => Math.max(0, machineBusyMs() - start.machine - (familyMs() - start.family)) / (performance.now() - start.at);
}

/**
 * Waits (at most `maxMs`) until other processes use less than `cores` over a quarter second, so a
 * row starts on a quiet machine when it can. Returns what they used in the last window.
 */
export async function waitForQuiet(cores: number, maxMs: number): Promise<number> {
  const until = performance.now() + maxMs;
  for (;;) {
    const others = otherCoresMeter();
    await new Promise((done) => setTimeout(done, 250));
    const used = others();
    if (used < cores || performance.now() >= until) return used;
  }
}

export interface TreeCpu {
  /** This process's CPU time (in the verify bench: the harness, the emulator and the agency). */
  nodeMs: number;
  /** Its descendants' (Chromium's processes), by Chromium's --type (its browser process has none: `browser`). */
  chromiumMs: number;
  chromiumByType: Record<string, number>;
  /** The whole machine's busy time meanwhile (/proc/stat): the others' share says how noisy it was. */
  machineMs: number;
  totalMs: number;
}

/**
 * The CPU time of this process and of every Chromium process below it, from a start to `stop()`. Chromium's
 * renderers are children of its zygote, which does not leave their time to its parent when they
 * exit, so the exited children's counts of /proc/self/stat miss most of it: the descendants are
 * read every `everyMs` instead, each counted at the last reading it was alive for (a process that
 * lived less than that is missed, and one that exits loses at most its last `everyMs`).
 */
export function processTreeMeter(everyMs = 200): { stop(): TreeCpu } {
  const start = { machine: machineBusyMs(), self: process.cpuUsage() };
  // By pid and start time: a pid the kernel hands out again is another process.
  const seen = new Map<string, { type: string; ms: number }>();
  const before = new Map<string, number>();
  const read = (initial: boolean) => {
    for (const [pid, proc] of chromiumProcesses()) {
      const key = `${pid}@${proc.startTicks}`;
      if (initial) before.set(key, proc.ms);
      seen.set(key, { type: proc.type, ms: Math.max(proc.ms, seen.get(key)?.ms ?? 0) });
    }
  };
  read(true);
  const timer = setInterval(() => read(false), everyMs);
  return {
    stop() {
      read(false);
      clearInterval(timer);
      const used = process.cpuUsage(start.self);
      const chromiumByType: Record<string, number> = {};
      for (const [key, proc] of seen) chromiumByType[proc.type] = (chromiumByType[proc.type] ?? 0) + proc.ms - (before.get(key) ?? 0);
      const nodeMs = (used.user + used.system) / 1000;
      const chromiumMs = Object.values(chromiumByType).reduce((total, ms) => total + ms, 0);
      return { nodeMs, chromiumMs, chromiumByType, machineMs: machineBusyMs() - start.machine, totalMs: nodeMs + chromiumMs };
    },
  };
}

function familyMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_MS;
}

/** user + nice + system + irq + softirq + steal of the first line of /proc/stat. */
function machineBusyMs(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return (user + nice + system + irq + softirq + steal) * TICK_MS;
}

/** utime + stime of /proc/PID/stat (fields 14 and 15, counted after the command name), in 10 ms steps. */
export function processMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}
