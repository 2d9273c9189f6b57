/**
 * The throughput rows: each request type of cases.ts, and the sustained mix of all four, measured
 * against their baselines in the same run, each row's servers taking turns.
 */
import { join } from 'node:path';
import { type BaselineKind, type BenchCase, type CaseId } from './cases.js';
import { type LoadRequest, type Measurement, SessionPool, inTurn, requestContender, warmUp } from './load.js';
import { type AgencyKeySecret, FlowPlan, MixedLoad, type MixedMeasurement, sampleMixedAnswers } from './mixed.js';
import { type Answer, type ChildServer, type IssuedCode, type PooledSession, SERVER_LABELS, type ServerKind, startChild } from './servers.js';
import { LOAD, MIXED, MIXED_KEYS, POOL_MARGIN, PROFILE_DIR, progress } from './settings.js';
import { type Row, whole } from './targets.js';

/**
 * One request type: a fresh emulator and its sampled answer; the baselines, each answering it;
 * each warms up (the emulator last, its session pool sized on the SQLite baseline's pace), then
 * they take turns.
 */
export async function runCase(benchCase: BenchCase, dir: string): Promise<Row[]> {
  const emulator = await startChild({ kind: 'emulator', dataDir: join(dir, 'emulator') });
  const baselines: ChildServer[] = [];
  try {
    const request = benchCase.request(await emulator.call({ type: 'env' }));
    const sampleSession = benchCase.pool ? (await emulator.call({ type: benchCase.pool, count: 1 }))[0] : undefined;
    const answer = await sampleAnswer(emulator.url, request, sampleSession);
    for (const kind of benchCase.baselines) baselines.push(await startBaseline(kind, answer, join(dir, kind)));

    // Baselines take the same per-request headers and body as the emulator (one session, repeated).
    const contenders = baselines.map((server) => requestContender(server, request, LOAD.connections, sampleSession ? new SessionPool([sampleSession]) : undefined));
    const warmupRates = new Map<ServerKind, number>();
    for (const [i, contender] of contenders.entries()) warmupRates.set(baselines[i]!.kind, await warmUp(contender, LOAD.warmupSeconds));

    // Sessions for the warm-up at the SQLite baseline's pace; then for the turns at the warm-up's own pace.
    const pool = benchCase.pool ? new SessionPool(await createSessions(emulator, benchCase.pool, poolSize(warmupRates.get('express-sqlite') ?? Math.max(...warmupRates.values()), LOAD.warmupSeconds, POOL_MARGIN.warmup))) : undefined;
    const emulatorContender = requestContender(emulator, request, LOAD.connections, pool);
    const emulatorWarmupRate = await warmUp(emulatorContender, LOAD.warmupSeconds);
    if (pool) pool.add(await createSessions(emulator, benchCase.pool!, poolSize(emulatorWarmupRate, LOAD.seconds, POOL_MARGIN.run)));

    const entriesBefore = entriesOf(benchCase, await emulator.call({ type: 'entryCounts' }));
    if (PROFILE_DIR) await emulator.call({ type: 'profileStart' });
    const measurements = await inTurn([...contenders, emulatorContender], LOAD);
    if (PROFILE_DIR) await emulator.call({ type: 'profileStop', path: join(PROFILE_DIR, `${benchCase.id}.cpuprofile`) });

    const rows = baselines.map((server, i) => toRow(benchCase, server.kind, measurements[i]!));
    const measurement = measurements.at(-1)!;
    const row = toRow(benchCase, 'emulator', measurement);
    if (pool) {
      const created = entriesOf(benchCase, await emulator.call({ type: 'entryCounts' })) - entriesBefore;
      row.notes.push(`${whole(created)} entries created; ${whole(pool.taken)} of ${whole(pool.size)} pre-created sessions used`);
      if (pool.reused > 0) row.flags.push(`session pool ran out: ${whole(pool.reused)} requests were retries, not first entries`);
    }
    for (const baseline of rows) compare(baseline, measurement);
    return [...rows, row];
  } finally {
    await Promise.all([emulator, ...baselines].map((server) => server.stop()));
  }
}

function compare(baseline: Row, emulator: Measurement): void {
  baseline.emulatorRatio = emulator.requestsPerSecond / baseline.measurement.requestsPerSecond;
  baseline.emulatorCpuRatio = baseline.measurement.cpu.serverUsPerRequest / emulator.cpu.serverUsPerRequest;
}

export function startBaseline(kind: BaselineKind, answer: Answer, dataDir: string): Promise<ChildServer> {
  return startChild(kind === 'express-sqlite' ? { kind, answers: [answer], dataDir } : { kind, answers: [answer] });
}

/**
 * The sustained mix against an Express + SQLite baseline answering the emulator's JSON: the
 * baseline warms up (its pace sizes the emulator's first codes), then the emulator (its pace sizes
 * the codes of its turns), then they take turns.
 */
export async function runMixed(dir: string): Promise<Row[]> {
  const emulator = await startChild({ kind: 'emulator', dataDir: join(dir, 'emulator') });
  let baseline: ChildServer | undefined;
  try {
    const { sandboxKey, productionKey } = await emulator.call({ type: 'env' });
    const keys: AgencyKeySecret[] = [
      { environment: 'sandbox', secret: sandboxKey }, { environment: 'production', secret: productionKey },
      ...(await emulator.call({ type: 'moreKeys', count: MIXED_KEYS - 2 })),
    ];
    baseline = await startChild({ kind: 'express-sqlite', answers: await sampleMixedAnswers(emulator.url, sandboxKey), dataDir: join(dir, 'express-sqlite') });
    // The baseline answers any code: one for all its flows.
    const anyCode = { exchange: '{"authorization_code":"sc_any","code_verifier":"any"}', entry: '{}' };
    const baselineLoad = new MixedLoad(baseline, new FlowPlan(keys, new SessionPool([anyCode])), MIXED.connections);
    const codes = new SessionPool<IssuedCode>([]);
    const emulatorLoad = new MixedLoad(emulator, new FlowPlan(keys, codes), MIXED.connections);
    const issue = async (requests: number) => {
      const count = emulatorLoad.plan.codesFor(requests) + MIXED.connections;
      const started = performance.now();
      codes.add(await emulator.call({ type: 'authCodes', count }));
      progress(`issued ${whole(count)} authorization codes in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    };

    await issue((await warmUp(baselineLoad, MIXED.warmupSeconds)) * MIXED.warmupSeconds * POOL_MARGIN.warmup);
    await issue((await warmUp(emulatorLoad, MIXED.warmupSeconds)) * MIXED.seconds * POOL_MARGIN.run);
    baselineLoad.startMeasuring();
    emulatorLoad.startMeasuring();
    if (PROFILE_DIR) await emulator.call({ type: 'profileStart' });
    const [baselineFigures, emulatorFigures] = await inTurn([baselineLoad, emulatorLoad], MIXED);
    if (PROFILE_DIR) await emulator.call({ type: 'profileStop', path: join(PROFILE_DIR, 'mixed.cpuprofile') });

    const baselineMeasurement = baselineLoad.measurement(baselineFigures!);
    delete baselineMeasurement.pool;
    const baselineRow = mixedRow('express-sqlite', baselineMeasurement);
    const measurement = emulatorLoad.measurement(emulatorFigures!);
    const row = mixedRow('emulator', measurement);
    if (codes.reused > 0) row.flags.push(`code pool ran out: ${whole(codes.reused)} exchanges reused a code`);
    compare(baselineRow, measurement);
    return [baselineRow, row];
  } finally {
    await Promise.all([emulator, ...(baseline ? [baseline] : [])].map((server) => server.stop()));
  }
}

function mixedRow(server: ServerKind, measurement: MixedMeasurement): Row {
  const row = toRow({ id: 'mixed', title: `mixed load, ${MIXED_KEYS} keys, ${MIXED.seconds} s` }, server, measurement);
  const { beforeMb, peakMb, endMb } = measurement.rss;
  row.notes.push(`${whole(measurement.flows)} flows; RSS ${beforeMb.toFixed(0)} MB before, peak ${peakMb.toFixed(0)} MB, ${endMb.toFixed(0)} MB at the end`);
  return row;
}

function entriesOf(benchCase: BenchCase, counts: { sandbox: number; production: number }): number {
  return benchCase.pool === 'productionSessions' ? counts.production : counts.sandbox;
}

export function toRow(benchCase: Pick<BenchCase, 'title'> & { id: CaseId }, server: ServerKind, measurement: Measurement): Row {
  const flags: string[] = [];
  if (measurement.non2xx > 0) {
    const codes = Object.entries(measurement.statusCodes).filter(([status]) => !status.startsWith('2'));
    flags.push(`${measurement.non2xx} non-2xx (${codes.map(([status, count]) => `${status}: ${count}`).join(', ')})`);
  }
  if (measurement.errors > 0) flags.push(`${measurement.errors} connection errors or timeouts`);
  progress(`${benchCase.title} · ${SERVER_LABELS[server]}: ${whole(measurement.requestsPerSecond)} req/s, p99 ${measurement.latencyP99Ms.toFixed(2)} ms, ${whole(measurement.cpu.serverUsPerRequest)} µs CPU/req, others ${measurement.cpu.otherCores.toFixed(2)} cores${flags.length ? `, ${flags.join(', ')}` : ''}`);
  return { case: benchCase.id, title: benchCase.title, server, measurement, flags, notes: [] };
}

function poolSize(requestsPerSecond: number, seconds: number, margin: number): number {
  return Math.ceil(requestsPerSecond * seconds * margin) + 2 * LOAD.connections;
}

async function createSessions(emulator: ChildServer, kind: NonNullable<BenchCase['pool']>, count: number): Promise<PooledSession[]> {
  const started = performance.now();
  const sessions = await emulator.call({ type: kind, count });
  progress(`pre-created ${whole(count)} ${kind === 'productionSessions' ? 'production' : 'sandbox'} sessions in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return sessions;
}

/** The emulator's answer to one request: what the baselines answer too. */
export async function sampleAnswer(url: string, request: LoadRequest, session: PooledSession | undefined): Promise<Answer> {
  const headers = session ? { ...request.headers, 'x-service-session': session.token } : request.headers;
  const res = await fetch(url + request.path, { method: request.method, headers, body: session?.body ?? request.body ?? null });
  const text = await res.text();
  if (!res.ok) throw new Error(`[bench] the emulator answered ${request.method} ${request.path} with ${res.status}: ${text}`);
  return { method: request.method, path: request.path, status: res.status, json: JSON.parse(text) as unknown };
}
