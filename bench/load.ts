/**
 * The load generator: autocannon in this process against a server in a child process. A warm-up
 * run, then the measured run; requests that need their own session take the next one from a pool
 * shared by both runs, and the pool says whether it ever had to hand one out twice.
 */
import autocannon from 'autocannon';
import { type CpuSnapshot, type CpuUse, cpuBetween, cpuSnapshot, waitForQuiet } from './cpu.js';
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
  seconds: number;
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

export interface Target {
  url: string;
  /** The server's process, whose CPU time is read from /proc. */
  pid: number;
}

/** Before a row, wait up to this long for other processes to leave the machine (shared machines). */
const QUIET = { cores: 0.1, maxMs: 2000 };

/** `afterWarmup` gets the warm-up's rate, e.g. to top up a session pool for the measured run. */
export async function measure(target: Target, request: LoadRequest, options: LoadOptions, pool?: SessionPool, afterWarmup?: (requestsPerSecond: number) => Promise<void>): Promise<Measurement> {
  await waitForQuiet(QUIET.cores, QUIET.maxMs);
  if (options.warmupSeconds > 0) {
    const warmup = await run(target.url, request, options.connections, options.warmupSeconds, pool);
    await afterWarmup?.(warmup.result.requests.total / warmup.result.duration);
  }
  const before = cpuSnapshot(target.pid);
  const { result, latencies } = await run(target.url, request, options.connections, options.seconds, pool);
  return {
    ...measured(result, latencies, before, cpuSnapshot(target.pid)),
    ...(pool ? { pool: { taken: pool.taken, size: pool.size, reused: pool.reused } } : {}),
  };
}

/** The figures of one measured autocannon run, with the server's CPU use over it. */
export function measured(result: autocannon.Result, latencies: number[], before: CpuSnapshot, after: CpuSnapshot): Omit<Measurement, 'pool'> {
  const responses = result.requests.total;
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: responses / result.duration,
    latencyP50Ms: percentile(latencies, 0.5),
    latencyP99Ms: percentile(latencies, 0.99),
    responses,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0])),
    seconds: result.duration,
    cpu: cpuBetween(before, after, responses),
  };
}

/** One measured request shape, each request with the next pooled session when there is a pool. */
function run(url: string, request: LoadRequest, connections: number, seconds: number, pool: SessionPool | undefined): Promise<{ result: autocannon.Result; latencies: number[] }> {
  const withSession = (req: autocannon.Request): autocannon.Request => {
    const session = pool!.next();
    return { ...req, headers: { ...req.headers, 'x-service-session': session.token }, body: session.body };
  };
  return loadRun(url, connections, seconds, [
    { method: request.method, path: request.path, headers: request.headers, ...(request.body ? { body: request.body } : {}), ...(pool ? { setupRequest: withSession } : {}) },
  ]);
}

/**
 * One autocannon run of `requests` (in turn, per connection). Latencies are taken from its
 * `response` events rather than its histogram, which keeps whole milliseconds only (a 0.4 ms
 * answer would read as 0).
 */
export function loadRun(url: string, connections: number, seconds: number, requests: autocannon.Request[]): Promise<{ result: autocannon.Result; latencies: number[] }> {
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
