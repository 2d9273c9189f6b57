/**
 * Start-to-healthy time and idle memory of the real command, next to baselines started the same
 * way (a bare node:http server, and a plain Express + better-sqlite3 app, start-baseline.ts): from
 * spawn until GET /_emulator/health answers 200, with a fresh data folder and with one that already
 * exists; then the resident memory (VmRSS) of each serving process after it has sat idle. The
 * servers take turns, run by run, so a busy spell on a shared machine falls on all of them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { otherCoresMeter, processMs, waitForQuiet } from './cpu.js';
import { turnOrder } from './load.js';
import { BASELINE_STARTER_PATH, CLI_PATH, STAND_IN_PATH } from './paths.js';

export type StartupKind = 'emulator' | 'node-http' | 'express-sqlite';

export interface Launcher {
  kind: StartupKind;
  label: string;
  args(dataDir: string, port: number): string[];
}

/** One server's starts: each run's wall time, the fastest and the median, the median CPU time until healthy; then its idle memory. */
export interface StartupFigures {
  launcher: string;
  freshMs: number[];
  existingMs: number[];
  bestFreshMs: number;
  bestExistingMs: number;
  medianFreshMs: number;
  medianExistingMs: number;
  medianFreshCpuMs: number;
  medianExistingCpuMs: number;
  idleRssMb: number;
  peakRssMb: number;
  laterRssMb: number;
}

export interface StartupResult {
  servers: Record<StartupKind, StartupFigures>;
  idleSeconds: number;
  laterSeconds: number;
  /** CPU other processes used while these runs went on, in cores (noise). */
  otherCores: number;
}

const POLL_EVERY_MS = 2;
const GIVE_UP_MS = 15_000;

/** The emulator's command and the two baselines, in the order of the first run. */
export function startupLaunchers(): Launcher[] {
  const baseline = (kind: Exclude<StartupKind, 'emulator'>, label: string): Launcher => ({
    kind, label, args: (data, port) => [BASELINE_STARTER_PATH, kind, '--data', data, '--port', String(port)],
  });
  return [emulatorLauncher(), baseline('node-http', 'bare node:http'), baseline('express-sqlite', 'Express + better-sqlite3')];
}

/** The CLI once it is built; until then a stand-in that calls startServer the same way. */
function emulatorLauncher(): Launcher {
  if (existsSync(CLI_PATH)) {
    return { kind: 'emulator', label: 'node dist/emulator/cli.js start --foreground', args: (data, port) => [CLI_PATH, 'start', '--foreground', '--data', data, '--port', String(port)] };
  }
  return { kind: 'emulator', label: 'node dist/bench/start-server.js (stand-in: dist/emulator/cli.js not built yet)', args: (data, port) => [STAND_IN_PATH, '--data', data, '--port', String(port)] };
}

/**
 * `runs` fresh starts of each server, then `runs` on the folder of its first; the servers take turns
 * within each run, each run beginning with the next one. The last start of each then sits idle:
 * RSS is read after `idleSeconds` (the target's figure) and again after `laterSeconds`, once V8's
 * memory reducer has run.
 */
export async function measureStartup(launchers: Launcher[], workDir: string, options: { runs: number; idleSeconds: number; laterSeconds: number }): Promise<StartupResult> {
  const others = otherCoresMeter();
  const fresh = new Map<Launcher, Started[]>(launchers.map((launcher) => [launcher, []]));
  const existing = new Map<Launcher, Started[]>(launchers.map((launcher) => [launcher, []]));
  const serving: Started[] = [];
  let idle: Array<{ idleRssMb: number; peakRssMb: number }>;
  let later: typeof idle;
  try {
    for (let run = 0; run < options.runs; run++) {
      for (const launcher of turnOrder(launchers, run)) {
        const started = await startToHealthy(launcher, join(workDir, launcher.kind, `fresh-${run}`));
        fresh.get(launcher)!.push(started);
        await started.stop();
      }
    }
    for (let run = 0; run < options.runs; run++) {
      for (const launcher of turnOrder(launchers, run)) {
        const started = await startToHealthy(launcher, join(workDir, launcher.kind, 'fresh-0'));
        existing.get(launcher)!.push(started);
        if (run < options.runs - 1) await started.stop();
        else serving.push(started);
      }
    }
    const pids = launchers.map((launcher) => existing.get(launcher)!.at(-1)!.servingPid);
    await sleep(options.idleSeconds * 1000);
    idle = pids.map(memoryOf);
    await sleep((options.laterSeconds - options.idleSeconds) * 1000);
    later = pids.map(memoryOf);
  } finally {
    await Promise.all(serving.map((started) => started.stop()));
  }

  const figures = launchers.map((launcher, i): [StartupKind, StartupFigures] => {
    const freshRuns = fresh.get(launcher)!;
    const existingRuns = existing.get(launcher)!;
    return [launcher.kind, {
      launcher: launcher.label,
      freshMs: freshRuns.map((run) => run.ms), existingMs: existingRuns.map((run) => run.ms),
      bestFreshMs: Math.min(...freshRuns.map((run) => run.ms)), bestExistingMs: Math.min(...existingRuns.map((run) => run.ms)),
      medianFreshMs: median(freshRuns.map((run) => run.ms)), medianExistingMs: median(existingRuns.map((run) => run.ms)),
      medianFreshCpuMs: median(freshRuns.map((run) => run.cpuMs)), medianExistingCpuMs: median(existingRuns.map((run) => run.cpuMs)),
      ...idle[i]!, laterRssMb: later[i]!.idleRssMb,
    }];
  });
  return { servers: Object.fromEntries(figures) as Record<StartupKind, StartupFigures>, idleSeconds: options.idleSeconds, laterSeconds: options.laterSeconds, otherCores: others() };
}

interface Started {
  ms: number;
  /** CPU time the process used until healthy: less sensitive to a busy machine than `ms`. */
  cpuMs: number;
  /** The serving process, which /_emulator/health names (the CLI serves in-process in --foreground). */
  servingPid: number;
  stop(): Promise<void>;
}

/**
 * Spawns the launcher on a free port and polls health. A health answer from another pid means
 * some other process took the port between our check and the spawn: that attempt is dropped
 * and retried on another port.
 */
async function startToHealthy(launcher: Launcher, dataDir: string, attempts = 3): Promise<Started> {
  await waitForQuiet(0.1, 3000);
  const port = await freePort();
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, launcher.args(dataDir, port), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);

  while (performance.now() - spawnedAt < GIVE_UP_MS) {
    const health = await healthOf(port);
    if (health && health.pid !== undefined && health.pid !== child.pid) {
      await stop(child);
      if (attempts > 1) return startToHealthy(launcher, dataDir, attempts - 1);
      throw new Error(`[bench] port ${port} kept answering for another process (pid ${health.pid})`);
    }
    if (health) return { ms: performance.now() - spawnedAt, cpuMs: processMs(child.pid!), servingPid: child.pid!, stop: () => stop(child) };
    if (child.exitCode !== null) throw new Error(`[bench] ${launcher.label} exited with ${child.exitCode} before it was healthy:\n${output}`);
    await sleep(POLL_EVERY_MS);
  }
  await stop(child);
  throw new Error(`[bench] ${launcher.label} was not healthy after ${GIVE_UP_MS} ms:\n${output}`);
}

function healthOf(port: number): Promise<{ pid?: number } | undefined> {
  return new Promise((resolve) => {
    const req = get({ host: '127.0.0.1', port, path: '/_emulator/health', agent: false, timeout: 1000 }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => {
        if (res.statusCode !== 200) return resolve(undefined);
        try {
          resolve(JSON.parse(body) as { pid?: number });
        } catch {
          resolve({});
        }
      });
    });
    req.on('error', () => resolve(undefined));
    req.on('timeout', () => req.destroy());
  });
}

function memoryOf(pid: number): { idleRssMb: number; peakRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { idleRssMb: kb('VmRSS') / 1024, peakRssMb: kb('VmHWM') / 1024 };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      done();
    });
    child.kill('SIGTERM');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
