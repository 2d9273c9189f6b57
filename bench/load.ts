/**
 * The load generator: autocannon in this process against servers in child processes. Each server
 * warms up, then the servers of a row take turns, so a busy spell of a shared machine falls on all
 * of them rather than on one; each server's turns are summed into its measurement. Requests that
 * need their own session take the next one from a pool shared by warm-up and turns, and the pool
 * says whether it ever had to hand one out twice.
 */
import autocannon from 'autocannon';
import { type CpuSnapshot, type CpuUse, cpuOver, cpuSnapshot, waitForQuiet } from './cpu.js';
import type { PooledSession } from './servers.js';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  connections: number;
  warmupSeconds: number;
  /** Measured seconds per server, split into `turns` runs that take turns with the other servers of the row. */
  seconds: number;
  turns: number;
}

export interface Measurement {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  responses: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
  seconds: number;
  cpu: CpuUse;
  /** Sessions taken from the pool (warm-up included), how many there were, how many went out twice. */
  pool?: { taken: number; size: number; reused: number };
}

/** Hands each request the next pre-created session (or code); counts what it handed out. */
export class SessionPool<T = PooledSession> {
  taken = 0;
  /** Requests that got a session already handed out, because the pool ran out. */
  reused = 0;

  constructor(private readonly sessions: T[]) {}

  get size(): number {
    return this.sessions.length;
  }

  add(more: T[]): void {
    for (const session of more) this.sessions.push(session);
  }

  /** Past the end it wraps around and counts the reuse: the run then measured retries too. */
  next(): T {
    if (this.taken >= this.sessions.length) this.reused++;
    return this.sessions[this.taken++ % this.sessions.length]!;
  }
}

/** One server of a row: what a run of some seconds against it is. */
export interface Contender {
  /** The server's process, whose CPU time is read from /proc. */
  pid: number;
  run(seconds: number): Promise<LoadRun>;
}

export interface LoadRun {
  result: autocannon.Result;
  latencies: number[];
}

interface Turn extends LoadRun {
  before: CpuSnapshot;
  after: CpuSnapshot;
}

/** Before a row, wait up to this long for other processes to leave the machine (shared machines). */
const QUIET = { cores: 0.1, maxMs: 2000 };

/** A warm-up run (after waiting for a quiet machine); returns its req/s, e.g. to size a session pool. */
export async function warmUp(contender: Contender, seconds: number): Promise<number> {
  await waitForQuiet(QUIET.cores, QUIET.maxMs);
  const { result } = await contender.run(seconds);
  return result.requests.total / result.duration;
}

/**
 * The measured runs of a row: each round, every server runs `seconds / turns`, the round beginning
 * with the next server each time. Returns each server's figures, its turns taken together.
 */
export async function inTurn(contenders: Contender[], options: Pick<LoadOptions, 'seconds' | 'turns'>): Promise<Array<Omit<Measurement, 'pool'>>> {
  await waitForQuiet(QUIET.cores, QUIET.maxMs);
  const turns: Turn[][] = contenders.map(() => []);
  for (let round = 0; round < options.turns; round++) {
    for (const i of turnOrder(contenders.map((_, index) => index), round)) {
      const before = cpuSnapshot(contenders[i]!.pid);
      const run = await contenders[i]!.run(options.seconds / options.turns);
      turns[i]!.push({ ...run, before, after: cpuSnapshot(contenders[i]!.pid) });
    }
  }
  return turns.map(measured);
}

/** The order of round `round`: each round begins with the next of `items`, so none always goes first. */
export function turnOrder<T>(items: T[], round: number): T[] {
  return items.map((_, i) => items[(round + i) % items.length]!);
}

/** One request shape against one server, each request with the next pooled session when there is a pool. */
export function requestContender(server: { url: string; pid: number }, request: LoadRequest, connections: number, pool?: SessionPool): Contender {
  const withSession = (req: autocannon.Request): autocannon.Request => {
    const session = pool!.next();
    return { ...req, headers: { ...req.headers, 'x-service-session': session.token }, body: session.body };
  };
  const requests = [{ method: request.method, path: request.path, headers: request.headers, ...(request.body ? { body: request.body } : {}), ...(pool ? { setupRequest: withSession } : {}) }];
  return { pid: server.pid, run: (seconds) => loadRun(server.url, connections, seconds, requests) };
}

/** A server's turns taken together: responses over the seconds they ran, every latency, CPU over the turns. */
function measured(turns: Turn[]): Omit<Measurement, 'pool'> {
  const responses = turns.reduce((total, turn) => total + turn.result.requests.total, 0);
  const seconds = turns.reduce((total, turn) => total + turn.result.duration, 0);
  const latencies = turns.flatMap((turn) => turn.latencies).sort((a, b) => a - b);
  const statusCodes: Record<string, number> = {};
  for (const turn of turns) {
    for (const [status, stats] of Object.entries(turn.result.statusCodeStats ?? {})) statusCodes[status] = (statusCodes[status] ?? 0) + (stats.count ?? 0);
  }
  return {
    requestsPerSecond: responses / seconds,
    latencyP50Ms: percentile(latencies, 0.5),
    latencyP99Ms: percentile(latencies, 0.99),
    responses,
    non2xx: turns.reduce((total, turn) => total + turn.result.non2xx, 0),
    errors: turns.reduce((total, turn) => total + turn.result.errors + turn.result.timeouts, 0),
    statusCodes,
    seconds,
    cpu: cpuOver(turns.map((turn) => [turn.before, turn.after]), responses),
  };
}

/**
 * One autocannon run of `requests` (in turn, per connection). Latencies are taken from its
 * `response` events rather than its histogram, which keeps whole milliseconds only (a 0.4 ms
 * answer would read as 0).
 */
export function loadRun(url: string, connections: number, seconds: number, requests: autocannon.Request[]): Promise<LoadRun> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, connections, pipelining: 1, duration: seconds, timeout: 10, requests },
      (error: unknown, result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve({ result, latencies })),
    );
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}
