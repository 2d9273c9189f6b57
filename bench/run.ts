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
 * cases.ts, `mixed`, `startup`, `reporting`, `reads`, `control-reads`, `verify`, `hostile`).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CASES } from './cases.js';
import { type LoadRequest, inTurn, requestContender, warmUp } from './load.js';
import { type Machine, meanOf } from './machine.js';
import { chosenParts } from './parts.js';
import { ROOT } from './paths.js';
import { type BenchReport, formatReport, writeReport } from './report.js';
import { type ReportingReadFigures, benchReportingReads } from './reporting-reads.js';
import { measureVerify } from './verify.js';
import { measureHostilePage } from './hostile.js';
import { benchReporting } from './reporting.js';
import { benchControlReads } from './control-reads.js';
import { type Answer, startChild } from './servers.js';
import { IDLE_SECONDS, LATER_SECONDS, LOAD, NOTES, PROFILE_DIR, STARTUP_RUNS, VERIFY_BUSY_CORES, progress } from './settings.js';
import { type StartupResult, measureStartup, startupLaunchers } from './startup.js';
import { type ReportingRead, type Row, controlReadTargets, hostileTarget, reportingReadTargets, reportingTargets, scanListRead, startupTargets, throughputTargets, verifyTargets, verifyUnderLoadTarget } from './targets.js';
import { runCase, runMixed, sampleAnswer, startBaseline, toRow } from './throughput.js';
import { readCiRun } from './ci.js';
import { endInOneLine } from './one-line.js';

const parts = chosenParts();

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'promo-bench-'));
  if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
  try {
    const rows: Row[] = [];
    for (const benchCase of CASES.filter((each) => parts.runs(each.id))) rows.push(...(await runCase(benchCase, join(work, benchCase.id))));

    if (parts.runs('mixed')) rows.push(...(await runMixed(join(work, 'mixed'))));

    let startup: StartupResult | undefined;
    let startupError: string | undefined;
    if (parts.runs('startup')) {
      const launchers = startupLaunchers();
      progress(`start to healthy, in turn: ${launchers.map((launcher) => launcher.label).join('; ')}`);
      try {
        startup = await measureStartup(launchers, join(work, 'startup'), { runs: STARTUP_RUNS, idleSeconds: IDLE_SECONDS, laterSeconds: LATER_SECONDS });
      } catch (error) {
        startupError = (error as Error).message;
      }
    }

    const reporting = parts.runs('reporting')
      ? await timed('reporting', join(work, 'machine-reporting'), () => {
        progress('reporting: 1,000,000 scans, a 1,000,000-code batch and its CSV download');
        return benchReporting();
      })
      : undefined;
    const readsRun = parts.runs('reads')
      ? await timed('reporting reads', join(work, 'machine-reads'), () => {
        progress('reporting reads: every read of the reporting API on 1,000,000 scans, the collectors list and detail included');
        return benchReportingReads();
      })
      : undefined;
    const reads: ReportingRead[] = [...(reporting ? [scanListRead(reporting.result)] : []), ...(readsRun ? readingsOf(readsRun.result) : [])];
    const control = parts.runs('control-reads')
      ? await timed('control reads', join(work, 'machine-control'), () => {
        progress('control reads: every control-plane read at 5,000,000 pack codes');
        return benchControlReads();
      })
      : undefined;
    const verifyRun = parts.runs('verify')
      ? await timed('harness verify', join(work, 'machine-verify'), async () => {
        progress('harness verify: the reference agency through every scenario');
        const quiet = await measureVerify();
        progress(`harness verify: ${(quiet.wallMs / 1000).toFixed(1)} s, ${(quiet.cpu.totalMs / 1000).toFixed(1)} CPU-s; again beside ${VERIFY_BUSY_CORES} busy cores`);
        return { quiet, loaded: await measureVerify(VERIFY_BUSY_CORES) };
      })
      : undefined;
    const hostile = parts.runs('hostile') ? await measureHostilePage() : undefined;
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
      targets: parts.partial ? targets.filter((target) => target.ratio !== null) : targets,
    };
    const path = writeReport(report);
    console.log(formatReport(report));
    console.log(`\nwritten: ${relative(ROOT, path)}`);
    if (rows.some((row) => row.flags.length > 0) || startupError) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
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
