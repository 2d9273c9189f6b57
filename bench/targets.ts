/**
 * The targets (issue 25, which reset issue 17's), each judged as a ratio measured in this run, so the same code gets the
 * same verdict on any machine: the emulator over a baseline measured alongside it, or, for the few
 * limits that are times by nature, the time over its limit as it applies on this machine
 * (machine.ts). The absolute figures behind each ratio are printed as information only.
 */
import { HOSTILE_PEAK_BOUND_MB, type HostileMeasurement } from './hostile.js';
import type { VerifyMeasurement } from './verify.js';
import type { ControlRead } from './control-reads.js';
import type { CaseId } from './cases.js';
import type { Measurement } from './load.js';
import { type Machine, limitOnThisMachine } from './machine.js';
import type { ReportingFigures } from './reporting.js';
import type { ServerKind } from './servers.js';
import type { StartupResult } from './startup.js';

export interface Row {
  case: CaseId;
  title: string;
  server: ServerKind;
  measurement: Measurement;
  /** Emulator req/s divided by this baseline's, on baseline rows. */
  emulatorRatio?: number;
  /** This baseline's CPU time per request divided by the emulator's, on baseline rows. */
  emulatorCpuRatio?: number;
  /** What makes this measurement untrustworthy (errors, non-2xx, a reused session). */
  flags: string[];
  notes: string[];
}

export interface TargetResult {
  target: string;
  /** What is judged: emulator ÷ baseline, or a time ÷ its limit on this machine; null when not measured. */
  ratio: number | null;
  needed: string;
  pass: boolean;
  /** The absolute figures behind the ratio: information, not judged. */
  figures: string;
}

/**
 * One reporting read at scale, p99 over sequential requests. The scan list comes from reporting.ts;
 * every other read (reporting-reads.ts: the collectors list and detail among them, and health
 * while eight clients read the collectors) is handed to run.ts in this shape, and each is judged by
 * `reportingReadTargets`.
 */
export interface ReportingRead {
  read: string;
  scans: number;
  p50Ms?: number;
  p99Ms: number;
  /** The p99 limit on the reference machine when stricter than issue 17's 50 ms for every read. */
  limitMs?: number;
}

/**
 * How far a guard's ratio may stray past its line and still pass: runs of the same code on the shared
 * 2-core machine read 0.95 to 1.03 (production entry), 0.96 to 1.01 (mixed load) and 1.38 to 1.61
 * (start, existing folder) against their lines (issue 43). A guard with a band passes within it;
 * no work goes to chasing a figure inside it.
 */
const NOISE_BAND = 0.1;

/**
 * Throughput guards: emulator req/s over the named baseline's, in the same run. The service's own
 * ceiling is 3,000 requests a minute per key, so these keep what the emulator reached (GET /campaign
 * at 2.3× plain Express, a production entry at 1.03× Express + SQLite) rather than ask for more.
 */
const THROUGHPUT: Array<{ case: CaseId; baseline: ServerKind; atLeast: number; band?: number; target: string }> = [
  { case: 'campaign', baseline: 'express', atLeast: 2.0, target: 'GET /campaign ÷ plain Express, same JSON' },
  { case: 'production-entry', baseline: 'express-sqlite', atLeast: 1.0, band: NOISE_BAND, target: 'production entry ÷ Express + SQLite insert per request' },
  { case: 'sandbox-session', baseline: 'express', atLeast: 0.8, target: 'sandbox POST /sessions ÷ plain Express, same JSON' },
  { case: 'mixed', baseline: 'express-sqlite', atLeast: 1.0, band: NOISE_BAND, target: 'mixed load ÷ Express + SQLite flow' },
];

/**
 * Start to healthy over the Express + SQLite baseline started the same way, by the median CPU time
 * each start took until healthy. Starts are CPU-bound (on the quiet 2-core machine: 190 ms of CPU,
 * 200 ms of wall time), so that ratio is the quiet machine's wall-time ratio; on a busy machine wall
 * times follow the scheduler (two runs of the same code on the shared 2-core machine, existing
 * folder: 0.76 and 1.61 by the fastest wall times, 1.47 and 1.65 by CPU). Wall times stay in the
 * figures, to show a start that would wait rather than compute. Throughput targets keep req/s,
 * the figure the issue names: their rows take turns, which shares a busy machine out fairly.
 */
const START = { existing: 1.5, fresh: 2.0 };
/**
 * Idle RSS over the Express + SQLite baseline's, both after the same idle seconds: issue 2's 70 MB
 * over the 60 MB the baseline holds on the 2-core machine, rounded down.
 */
const IDLE_RSS = 1.15;

/** Time limits, as stated for the reference machine (machine.ts) and scaled to this one. */
const LIMITS = {
  /** Issue 17: every reporting read at 1M scans. */
  readP99Ms: 50,
  /** Issue 4: a 1M-code batch, from POST to a downloadable CSV. */
  batchReadySeconds: 15,
  /**
   * Issue 42: harness verify on the reference agency, every scenario: the polling schedule alone is
   * 17 s after the entry, so 20 s of wall time; and 25 s of the CPU time of its processes.
   */
  verifySeconds: 20,
  verifyCpuSeconds: 25,
};
/** Issue 4: the CSV download streams: the emulator's peak RSS while serving it over its RSS before. */
const DOWNLOAD_RSS = 1.2;

export function throughputTargets(rows: Row[]): TargetResult[] {
  const row = (id: CaseId, server: ServerKind) => rows.find((each) => each.case === id && each.server === server);
  return THROUGHPUT.map(({ case: id, baseline, atLeast: min, band, target }) => {
    const emulator = row(id, 'emulator');
    const base = row(id, baseline);
    if (!emulator || !base) return atLeast(target, null, min, 'not measured', band);
    const [e, b] = [emulator.measurement, base.measurement];
    const figures = `${whole(e.requestsPerSecond)} vs ${whole(b.requestsPerSecond)} req/s; by CPU ${(b.cpu.serverUsPerRequest / e.cpu.serverUsPerRequest).toFixed(2)} (${whole(e.cpu.serverUsPerRequest)} vs ${whole(b.cpu.serverUsPerRequest)} µs/req)`;
    return atLeast(target, e.requestsPerSecond / b.requestsPerSecond, min, figures, band);
  });
}

export function startupTargets(startup: StartupResult | undefined): TargetResult[] {
  const emulator = startup?.servers.emulator;
  const base = startup?.servers['express-sqlite'];
  const ms = (value: number) => `${whole(value)} ms`;
  const over = (pick: (figures: NonNullable<typeof base>) => number) => (emulator && base ? pick(emulator) / pick(base) : null);
  const versus = (pick: (figures: NonNullable<typeof base>) => number, unit: (value: number) => string) => (emulator && base ? `${unit(pick(emulator))} vs ${unit(pick(base))}` : 'not measured');
  return [
    atMost('start to healthy, existing folder ÷ Express + SQLite opening its database (CPU until healthy)', over((s) => s.medianExistingCpuMs), START.existing,
      `CPU ${versus((s) => s.medianExistingCpuMs, ms)}; wall: fastest ${versus((s) => s.bestExistingMs, ms)}, medians ${versus((s) => s.medianExistingMs, ms)}`, NOISE_BAND),
    atMost('start to healthy, fresh folder ÷ Express + SQLite creating and seeding its schema (CPU until healthy)', over((s) => s.medianFreshCpuMs), START.fresh,
      `CPU ${versus((s) => s.medianFreshCpuMs, ms)}; wall: fastest ${versus((s) => s.bestFreshMs, ms)}, medians ${versus((s) => s.medianFreshMs, ms)}`, NOISE_BAND),
    atMost(`idle RSS after ${startup?.idleSeconds ?? '?'} s ÷ Express + SQLite's`, over((s) => s.idleRssMb), IDLE_RSS, versus((s) => s.idleRssMb, (mb) => `${mb.toFixed(1)} MB`)),
  ];
}

/** Issue 4's scale figures: the batch against its time limit scaled to this machine, the download's memory as a ratio. */
export function reportingTargets(figures: ReportingFigures, machine: Machine): TargetResult[] {
  return [
    withinTime(`${figures.batchCodes.toLocaleString('en')}-code batch, POST to export_ready`, figures.batchReadySeconds, LIMITS.batchReadySeconds, 's', machine),
    atMost('emulator RSS peak during its CSV download ÷ its RSS before', figures.rssPeakDuringDownloadMb / figures.rssBeforeDownloadMb, DOWNLOAD_RSS,
      `${figures.rssPeakDuringDownloadMb.toFixed(0)} vs ${figures.rssBeforeDownloadMb.toFixed(0)} MB; CSV ${figures.csvMegabytes.toFixed(0)} MB`),
  ];
}

/** Issue 4's scan list as a reporting read: 100 rows with since, p99 under 20 ms on the reference machine. */
export function scanListRead(figures: ReportingFigures): ReportingRead {
  return { read: 'scan list, 100 rows with since', scans: figures.scans, p50Ms: figures.scanListP50Ms, p99Ms: figures.scanListP99Ms, limitMs: 20 };
}

/** Issue 17: every reporting read at scale, p99 under 50 ms on the reference machine (or its own stricter limit). */
export function reportingReadTargets(reads: ReportingRead[], machine: Machine): TargetResult[] {
  return reads.map((read) =>
    withinTime(`reporting read p99: ${read.read}, ${read.scans.toLocaleString('en')} scans`, read.p99Ms, read.limitMs ?? LIMITS.readP99Ms, 'ms', machine));
}

/** Control-plane reads at 5M pack codes (issue 27, item 4), each p99 under the reads' limit. */
export function controlReadTargets(reads: ControlRead[], machine: Machine): TargetResult[] {
  return reads.map((read) => withinTime(`control-plane read p99: ${read.read}, ${read.codes.toLocaleString('en')} pack codes`, read.p99Ms, LIMITS.readP99Ms, 'ms', machine));
}

/**
 * A full `harness verify` on the reference agency: its wall time, and the CPU time of its processes
 * (this one, which runs the emulator and the agency too, and Chromium's); a run with stopped
 * scenarios does not count.
 */
export function verifyTargets(run: VerifyMeasurement, machine: Machine): TargetResult[] {
  const stopped = (target: TargetResult): TargetResult =>
    run.stopped.length === 0 ? target : { ...target, pass: false, figures: `${target.figures}; ${run.stopped.length} scenario(s) stopped early: not comparable` };
  const cpu = withinTime(`harness verify, ${run.scenarios} scenarios, CPU time of its processes`, run.cpu.totalMs / 1000, LIMITS.verifyCpuSeconds, 'CPU-s', machine);
  return [
    stopped(withinTime(`harness verify, ${run.scenarios} scenarios, wall time (its bound: ${run.boundSeconds} s)`, run.wallMs / 1000, LIMITS.verifySeconds, 's', machine)),
    stopped({ ...cpu, figures: `${cpu.figures}; ${cpuSplit(run.cpu)}` }),
  ];
}

/** The verify beside busy cores gives the quiet run's verdict: every check the same status. */
/** The harness's process tree against pages built to exhaust it: its peak under HOSTILE_PEAK_BOUND_MB (6.2 GB before the bounds). */
export function hostileTarget(result: HostileMeasurement): TargetResult {
  const ratio = result.peakMb / HOSTILE_PEAK_BOUND_MB;
  return {
    target: "harness's peak memory against a console flood, 512 MB of typed arrays, six 440 MB workers and a 100,000 px canvas", ratio, needed: '≤ 1.00', pass: ratio <= 1,
    figures: `peak ${result.peakMb} MB of ${HOSTILE_PEAK_BOUND_MB} MB (Node ${result.nodePeakMb}, Chromium ${result.chromiumPeakMb}); ${result.notes.length} bound(s) hit: ${result.notes.join(' | ')}`,
  };
}

export function verifyUnderLoadTarget(quiet: VerifyMeasurement, loaded: VerifyMeasurement, busyCores: number): TargetResult {
  const moved = Object.entries(loaded.statuses).filter(([id, status]) => quiet.statuses[id] !== status).map(([id, status]) => `${id} ${quiet.statuses[id] ?? 'absent'} → ${status}`);
  const same = moved.length === 0 && Object.keys(quiet.statuses).length === Object.keys(loaded.statuses).length;
  return {
    target: `harness verify beside ${busyCores} busy cores: the quiet run's verdict`, ratio: same ? 1 : 0, needed: 'same', pass: same,
    figures: `${same ? 'same statuses' : `moved: ${moved.join(', ') || 'other checks'}`} (${summaryLine(loaded)}); wall ${(loaded.wallMs / 1000).toFixed(1)} s vs ${(quiet.wallMs / 1000).toFixed(1)} s quiet; ${cpuSplit(loaded.cpu)}`,
  };
}

function summaryLine(run: VerifyMeasurement): string {
  return Object.entries(run.summary).filter(([, count]) => count > 0).map(([status, count]) => `${count} ${status}`).join(', ');
}

function cpuSplit(cpu: VerifyMeasurement['cpu']): string {
  const part = (ms: number) => `${(ms / 1000).toFixed(1)}`;
  return `CPU-s: Node ${part(cpu.nodeMs)}, Chromium ${part(cpu.chromiumMs)} (${Object.entries(cpu.chromiumByType).map(([type, ms]) => `${type} ${part(ms)}`).join(', ')}); the whole machine ${part(cpu.machineMs)}`;
}

/** A time over its limit on this machine (the limit scaled by how much slower than the reference the machine measured). */
function withinTime(target: string, value: number, limit: number, unit: string, machine: Machine): TargetResult {
  const here = limitOnThisMachine(limit, machine);
  const scaled = here > limit ? `, ${here.toFixed(1)} ${unit} here (node:http ${machine.nodeHttpUsPerRequest.toFixed(0)} µs per response around it)` : '';
  const figures = `${value.toFixed(1)} ${unit}; limit ${limit} ${unit}${scaled}`;
  return atMost(`${target} ÷ limit`, value / here, 1, figures);
}

/** At least `line`, or within `band` (a share of the line) below it. */
function atLeast(target: string, ratio: number | null, line: number, figures: string, band = 0): TargetResult {
  const min = line * (1 - band);
  return { target, ratio, needed: `≥ ${min.toFixed(2)}${inBand(line, band)}`, pass: ratio !== null && ratio >= min - 1e-9, figures };
}

/** At most `line`, or within `band` (a share of the line) above it. */
function atMost(target: string, ratio: number | null, line: number, figures: string, band = 0): TargetResult {
  const max = line * (1 + band);
  return { target, ratio, needed: `≤ ${max.toFixed(2)}${inBand(line, band)}`, pass: ratio !== null && ratio <= max + 1e-9, figures };
}

function inBand(line: number, band: number): string {
  return band === 0 ? '' : ` (line ${line.toFixed(2)}, noise band ${Math.round(band * 100)}%)`;
}

export function whole(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
