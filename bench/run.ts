/**
 * `npm run bench`: throughput and p99 latency of four experience API calls, and of a sustained mix
 * of all four on 100 keys, next to baselines measured in the same run; start-to-healthy time and
 * idle memory of the real command next to baselines started the same way; reporting at scale and
 * `harness verify`, and the harness's peak memory against pages built to exhaust it. Every target is judged as a ratio measured in this run (targets.ts); a table on
 * stdout and a JSON file under bench-results/. Progress goes to stderr.
 * Exit 1 when a measurement had errors (non-2xx, connection errors, a reused session).
 *
 * To see where the emulator's time goes: `BENCH_PROFILE=1 npm run bench`, then
 * `node dist/bench/profile-summary.js bench-results/profiles/production-entry.cpuprofile`.
 * To run some parts only: `BENCH_ONLY=campaign,production-entry,startup` (parts: the case ids of
 * cases.ts, `mixed`, `startup`, `reporting`, `reads`, `verify`, `hostile`).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { type BaselineKind, type BenchCase, CASES, type CaseId } from './cases.js';
import { type LoadOptions, type LoadRequest, type Measurement, SessionPool, inTurn, requestContender, warmUp } from './load.js';
import { type Machine, meanOf } from './machine.js';
import { type AgencyKeySecret, FlowPlan, MixedLoad, type MixedMeasurement, sampleMixedAnswers } from './mixed.js';
import { RESULTS_DIR, ROOT } from './paths.js';
import { type BenchReport, formatReport, writeReport } from './report.js';
import { type ReportingReadFigures, benchReportingReads } from './reporting-reads.js';
import { measureVerify } from './verify.js';
import { measureHostilePage } from './hostile.js';
import { benchReporting } from './reporting.js';
import { benchControlReads } from './control-reads.js';
import { type Answer, type ChildServer, type IssuedCode, type PooledSession, SERVER_LABELS, type ServerKind, startChild } from './servers.js';
import { type StartupResult, measureStartup, startupLaunchers } from './startup.js';
import { type ReportingRead, type Row, controlReadTargets, hostileTarget, reportingReadTargets, reportingTargets, scanListRead, startupTargets, throughputTargets, verifyTargets, verifyUnderLoadTarget, whole } from './targets.js';
import { readCiRun } from './ci.js';
import { endInOneLine } from './one-line.js';

const LOAD: LoadOptions = { connections: 10, warmupSeconds: 1, seconds: 5, turns: 5 };
/** Issue 7: sustained mixed load, on this many agency keys. */
const MIXED: LoadOptions = { connections: 10, warmupSeconds: 2, seconds: 30, turns: 3 };
const MIXED_KEYS = 100;
const STARTUP_RUNS = 7;
/** Issue 25: the verify again with this many cores kept busy beside it; its verdict must be the quiet run's. */
const VERIFY_BUSY_CORES = 2;
const IDLE_SECONDS = 3;
/** A second RSS reading: V8 gives back young-generation space it grew during start only after some idle seconds. */
const LATER_SECONDS = 10;
/**
 * Pre-created sessions, as a multiple of what the expected pace uses: for the warm-up, the SQLite
 * baseline's warm-up pace (room for an emulator twice as fast); for the run, the emulator's own
 * warm-up pace, with room for a run faster than its warm-up.
 */
const POOL_MARGIN = { warmup: 2, run: 2 };

const NOTES = [
  `each server under test runs in a child process of its own; autocannon runs in the parent; the servers of a row warm up, then take turns (${LOAD.turns} turns of ${LOAD.seconds / LOAD.turns} s each, mixed load ${MIXED.turns} of ${MIXED.seconds / MIXED.turns} s), so a busy spell of a shared machine falls on all of them; each warm-up, each row's turns (≤ 2 s) and each start (≤ 3 s) first wait for other processes to go quiet`,
  'emulator: default fixture in a fresh file-backed data folder per request type (SQLite WAL), pino at info level to a file',
  "emulator: spec §8 rate limits RAISED to 1e9 per minute per key and per session (Config.limits), else 3,000/min per key caps a run at 50 req/s",
  'emulator: prize stock and budget raised so every draw keeps following the odds (winners take stock and budget all run long)',
  "baselines answer the emulator's own JSON for the same request, serialized per request; Express with ETag and X-Powered-By off, as in the emulator",
  `mixed load: each connection runs an agency's flow again and again (GET /campaign, POST /sessions, POST /session/entry, GET /session), each time on the next of ${MIXED_KEYS} keys, half sandbox (scenarios won, lost, pending, failed), half production (a journey-issued code exchanged with PKCE, entry with consent); ${MIXED.warmupSeconds} s warm-up + ${MIXED.seconds} s measured; RSS sampled every 250 ms`,
  'start to healthy: the emulator command and two baselines spawned the same way, taking turns: a bare node:http server, and a plain Express + better-sqlite3 app (not bundled) that opens its database in an existing folder, or in a fresh one creates a small schema (4 tables, 2 indexes) and seeds 122 rows in one transaction',
  'targets judge only ratios measured in this run; the time limits (reporting reads, the batch, harness verify) are stated for the reference machine and scaled up (never down) by bare node:http\'s CPU per response measured just before and after each of those sections, over the reference machine\'s',
  'entry rows: every request uses a session of its own, created in the emulator before the warm-up and, sized on the warm-up, before the measured run (production: its own new pack, a code from issueAuthCode exchanged with PKCE through exchangeCode), so each is a first entry, never the idempotent retry',
];

/** BENCH_PROFILE=1 writes a CPU profile of each emulator row's measured run to bench-results/profiles/. */
const PROFILE_DIR = process.env.BENCH_PROFILE ? join(RESULTS_DIR, 'profiles') : undefined;

/** BENCH_ONLY=part,part runs those parts only (for working on one figure); unset runs everything. */
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((part) => part.trim())) : undefined;
const PARTS = [...CASES.map((each) => each.id), 'mixed', 'startup', 'reporting', 'reads', 'control-reads', 'verify', 'hostile'];
const unknownParts = [...(ONLY ?? [])].filter((part) => !PARTS.includes(part));
if (unknownParts.length > 0) {
  console.error(`[bench] BENCH_ONLY names no part ${unknownParts.join(', ')}; the parts: ${PARTS.join(', ')}`);
  process.exit(2);
}
const runs = (part: string) => !ONLY || ONLY.has(part);

const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'promo-bench-'));
  if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
  try {
    const rows: Row[] = [];
    for (const benchCase of CASES.filter((each) => runs(each.id))) rows.push(...(await runCase(benchCase, join(work, benchCase.id))));

    if (runs('mixed')) rows.push(...(await runMixed(join(work, 'mixed'))));

    let startup: StartupResult | undefined;
    let startupError: string | undefined;
    if (runs('startup')) {
      const launchers = startupLaunchers();
      progress(`start to healthy, in turn: ${launchers.map((launcher) => launcher.label).join('; ')}`);
      try {
        startup = await measureStartup(launchers, join(work, 'startup'), { runs: STARTUP_RUNS, idleSeconds: IDLE_SECONDS, laterSeconds: LATER_SECONDS });
      } catch (error) {
        startupError = (error as Error).message;
      }
    }

    const reporting = runs('reporting')
      ? await timed('reporting', join(work, 'machine-reporting'), () => {
        progress('reporting: 1,000,000 scans, a 1,000,000-code batch and its CSV download');
        return benchReporting();
      })
      : undefined;
    const readsRun = runs('reads')
      ? await timed('reporting reads', join(work, 'machine-reads'), () => {
        progress('reporting reads: every read of the reporting API on 1,000,000 scans, the collectors list and detail included');
        return benchReportingReads();
      })
      : undefined;
    const reads: ReportingRead[] = [...(reporting ? [scanListRead(reporting.result)] : []), ...(readsRun ? readingsOf(readsRun.result) : [])];
    const control = runs('control-reads')
      ? await timed('control reads', join(work, 'machine-control'), () => {
        progress('control reads: every control-plane read at 5,000,000 pack codes');
        return benchControlReads();
      })
      : undefined;
    const verifyRun = runs('verify')
      ? await timed('harness verify', join(work, 'machine-verify'), async () => {
        progress('harness verify: the reference agency through every scenario');
        const quiet = await measureVerify();
        progress(`harness verify: ${(quiet.wallMs / 1000).toFixed(1)} s, ${(quiet.cpu.totalMs / 1000).toFixed(1)} CPU-s; again beside ${VERIFY_BUSY_CORES} busy cores`);
        return { quiet, loaded: await measureVerify(VERIFY_BUSY_CORES) };
      })
      : undefined;
    const hostile = runs('hostile') ? await measureHostilePage() : undefined;
    if (hostile) progress(`hostile pages: the harness's process tree peaked at ${hostile.peakMb} MB`);
    const readsMachine = readsRun?.machine ?? reporting?.machine;
    const speed = machineFrom(rows) ?? reporting?.machine ?? readsRun?.machine ?? verifyRun?.machine ?? (await measureMachine(join(work, 'machine'), 'run alone'));
    const targets = [
      ...throughputTargets(rows),
      ...startupTargets(startup),
      ...(readsMachine ? reportingReadTargets(reads, readsMachine) : []),
      ...(reporting ? reportingTargets(reporting.result, reporting.machine) : []),
      ...(control ? controlReadTargets(control.result, control.machine) : []),
      ...(verifyRun ? [...verifyTargets(verifyRun.result.quiet, verifyRun.machine), verifyUnderLoadTarget(verifyRun.result.quiet, verifyRun.result.loaded, VERIFY_BUSY_CORES)] : []),
      ...(hostile ? [hostileTarget(hostile)] : []),
    ];

    const cpu = cpus();
    // The last `.ci/run` of this checkout: information only.
    const ci = readCiRun();
    const report: BenchReport = {
      at: new Date().toISOString(),
      machine: { node: process.versions.node, cpus: cpu.length, cpuModel: cpu[0]?.model.trim() ?? 'unknown', ...speed },
      load: { ...LOAD, generator: `autocannon ${autocannonVersion()}` },
      notes: PROFILE_DIR ? [...NOTES, `BENCH_PROFILE: emulator runs were CPU-profiled (slower than unprofiled); profiles in ${relative(ROOT, PROFILE_DIR)}/`] : NOTES,
      rows,
      ...(startup ? { startup } : { startupError }),
      ...(reporting ? { reporting: { ...reporting.result, machine: reporting.machine } } : {}),
      ...(reads.length > 0 ? { reportingReads: reads } : {}),
      ...(verifyRun ? { verify: { ...verifyRun.result.quiet, machine: verifyRun.machine }, verifyUnderLoad: verifyRun.result.loaded } : {}),
      ...(hostile ? { hostile } : {}),
      ...(ci ? { ci } : {}),
      // A partial run (BENCH_ONLY) checks only the targets it measured.
      targets: ONLY ? targets.filter((target) => target.ratio !== null) : targets,
    };
    const path = writeReport(report);
    console.log(formatReport(report));
    console.log(`\nwritten: ${relative(ROOT, path)}`);
    if (rows.some((row) => row.flags.length > 0) || startupError) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * One request type: a fresh emulator and its sampled answer; the baselines, each answering it;
 * each warms up (the emulator last, its session pool sized on the SQLite baseline's pace), then
 * they take turns.
 */
async function runCase(benchCase: BenchCase, dir: string): Promise<Row[]> {
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

function startBaseline(kind: BaselineKind, answer: Answer, dataDir: string): Promise<ChildServer> {
  return startChild(kind === 'express-sqlite' ? { kind, answers: [answer], dataDir } : { kind, answers: [answer] });
}

/** The machine's speed from the GET /campaign node:http row, when this run measured it. */
function machineFrom(rows: Row[]): Machine | undefined {
  const row = rows.find((each) => each.case === 'campaign' && each.server === 'node-http');
  return row && { nodeHttpRps: row.measurement.requestsPerSecond, nodeHttpUsPerRequest: row.measurement.cpu.serverUsPerRequest, source: 'the GET /campaign row' };
}

/** A section judged against time limits, with the machine's speed measured just before and just after it. */
async function timed<T>(name: string, dir: string, section: () => Promise<T>): Promise<{ result: T; machine: Machine }> {
  const before = await measureMachine(join(dir, 'before'), `before ${name}`);
  const result = await section();
  const after = await measureMachine(join(dir, 'after'), `after ${name}`);
  return { result, machine: meanOf(before, after, `node:http just before and after ${name}`) };
}

/** GET /campaign's node:http baseline run alone, for the machine's speed. */
async function measureMachine(dir: string, when: string): Promise<Machine> {
  const campaign = CASES.find((each) => each.id === 'campaign')!;
  const emulator = await startChild({ kind: 'emulator', dataDir: join(dir, 'emulator') });
  let request: LoadRequest;
  let answer: Answer;
  try {
    request = campaign.request(await emulator.call({ type: 'env' }));
    answer = await sampleAnswer(emulator.url, request, undefined);
  } finally {
    await emulator.stop();
  }
  const server = await startBaseline('node-http', answer, join(dir, 'node-http'));
  try {
    const contender = requestContender(server, request, LOAD.connections);
    await warmUp(contender, LOAD.warmupSeconds);
    const [measurement] = await inTurn([contender], LOAD);
    toRow({ ...campaign, title: `machine speed, ${when}: ${campaign.title}` }, 'node-http', measurement!);
    return { nodeHttpRps: measurement!.requestsPerSecond, nodeHttpUsPerRequest: measurement!.cpu.serverUsPerRequest, source: `GET /campaign's node:http baseline, ${when}` };
  } finally {
    await server.stop();
  }
}

/**
 * The sustained mix against an Express + SQLite baseline answering the emulator's JSON: the
 * baseline warms up (its pace sizes the emulator's first codes), then the emulator (its pace sizes
 * the codes of its turns), then they take turns.
 */
async function runMixed(dir: string): Promise<Row[]> {
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

function toRow(benchCase: Pick<BenchCase, 'title'> & { id: CaseId }, server: ServerKind, measurement: Measurement): Row {
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
async function sampleAnswer(url: string, request: LoadRequest, session: PooledSession | undefined): Promise<Answer> {
  const headers = session ? { ...request.headers, 'x-service-session': session.token } : request.headers;
  const res = await fetch(url + request.path, { method: request.method, headers, body: session?.body ?? request.body ?? null });
  const text = await res.text();
  if (!res.ok) throw new Error(`[bench] the emulator answered ${request.method} ${request.path} with ${res.status}: ${text}`);
  return { method: request.method, path: request.path, status: res.status, json: JSON.parse(text) as unknown };
}

/** Each read of reporting-reads.ts, and the health read under parallel reads, as rows judged by the targets. */
function readingsOf(figures: ReportingReadFigures): ReportingRead[] {
  const health = figures.healthUnderLoad;
  return [
    ...figures.reads.map((read) => ({ read: read.read, scans: figures.seededScans, p50Ms: read.p50Ms, p99Ms: read.p99Ms })),
    { read: `health while ${health.readers} clients read ${health.read}`, scans: figures.seededScans, p99Ms: health.p99Ms },
  ];
}

function autocannonVersion(): string {
  return (createRequire(import.meta.url)('autocannon/package.json') as { version: string }).version;
}

await endInOneLine(main);
