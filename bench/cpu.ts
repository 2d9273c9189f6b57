/**
 * CPU time during a measurement, from /proc (Linux): the server child's own, the load generator's,
 * and what the rest of the machine used meanwhile. CPU time per request barely moves when other
 * processes compete for the 2 cores, so it stays comparable when requests per second do not; the
 * share the others took says how noisy a row was.
 */
import { readFileSync } from 'node:fs';

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
