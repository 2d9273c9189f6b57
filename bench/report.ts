/** The printed tables and the JSON file under bench-results/. */
import type { HostileMeasurement } from './hostile.js';
import type { VerifyMeasurement } from './verify.js';
import type { CiRun } from './ci.js';
import type { ReportingFigures } from './reporting.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadOptions } from './load.js';
import { type Machine, REFERENCE, slowerBy } from './machine.js';
import { RESULTS_DIR } from './paths.js';
import { SERVER_LABELS } from './servers.js';
import type { StartupKind, StartupResult } from './startup.js';
import { type ReportingRead, type Row, type TargetResult, whole } from './targets.js';

export interface BenchReport {
  at: string;
  machine: { node: string; cpus: number; cpuModel: string } & Machine;
  load: LoadOptions & { generator: string };
  notes: string[];
  rows: Row[];
  startup?: StartupResult;
  startupError?: string;
  /** Each timed section with the machine's speed measured around it. */
  reporting?: ReportingFigures & { machine: Machine };
  reportingReads?: ReportingRead[];
  verify?: VerifyMeasurement & { machine: Machine };
  /** The same verify with busy cores beside it. */
  verifyUnderLoad?: VerifyMeasurement;
  /** The harness's peak memory against pages built to exhaust it. */
  hostile?: HostileMeasurement;
  /** The last `.ci/run` of this checkout: information. */
  ci?: CiRun;
  targets: TargetResult[];
}

export function formatReport(report: BenchReport): string {
  const lines = [
    `promo-emulator bench · ${report.at} · Node ${report.machine.node} · ${report.machine.cpus} × ${report.machine.cpuModel}`,
    `load: ${report.load.generator}, ${report.load.connections} connections, ${report.load.warmupSeconds} s warm-up + ${report.load.seconds} s measured per server and row, in ${report.load.turns} turns, 127.0.0.1`,
    machineLine(report.machine),
    ...report.notes.map((note) => `note: ${note}`),
    'columns: CPU µs/req = server process CPU time per response (steady when the machine is busy, unlike req/s); emulator ÷ this = emulator req/s over this server\'s; by CPU = this server\'s CPU µs/req over the emulator\'s',
    '',
    throughputTable(report.rows),
    '',
    ...(report.startup || report.startupError ? [startupLines(report), ''] : []),
    ...(report.reporting ? [reportingLines(report.reporting), ''] : []),
    ...(report.targets.length === 0 ? [] : [targetTable(report.targets)]),
    '',
    report.ci
      ? `CI suite (information, not a target): .ci/run took ${(report.ci.seconds / 60).toFixed(1)} min on ${report.ci.cpus} cores, ${report.ci.passed} passed, ${report.ci.failed} failed (${report.ci.commit}, ${report.ci.at}); issue 25 asks ≤ 10 min on 2 cores`
      : 'CI suite (information): no .ci/run on this checkout yet (it writes bench-results/ci-run.json)',
  ];
  const flagged = report.rows.filter((row) => row.flags.length > 0);
  lines.push('', flagged.length === 0 ? 'every measured response was 2xx; no connection errors' : `FLAGGED: ${flagged.length} row(s) had errors, see the flag column`);
  return lines.join('\n');
}

/** The machine's bare node:http figures, by which a reader scales every absolute figure of the run. */
function machineLine(machine: BenchReport['machine']): string {
  const slower = slowerBy(machine);
  const speed = slower > 1 ? `${slower.toFixed(2)}× the reference machine's` : 'no more than the reference machine\'s';
  return `machine: bare node:http ${whole(machine.nodeHttpRps)} req/s, ${whole(machine.nodeHttpUsPerRequest)} µs of CPU per response (${machine.source}): ${speed} ${REFERENCE.nodeHttpUsPerRequest} µs (${whole(REFERENCE.nodeHttpRps)} req/s, quiet), on which the time limits were set; absolute figures are information, targets judge ratios`;
}

function targetTable(targets: TargetResult[]): string {
  const rows = targets.map((target) => [target.target, target.ratio === null ? 'n/a' : target.ratio.toFixed(2), target.needed, target.pass ? 'PASS' : 'MISS', target.figures]);
  return table(['target (ratio judged)', 'ratio', 'needed', 'result', 'figures (information)'], rows, 'lrlll');
}

function reportingLines(figures: ReportingFigures): string {
  return [
    `reporting: ${figures.scans.toLocaleString('en')} scans seeded in ${figures.seedSeconds.toFixed(1)} s; scan list (100 rows with since) p50 ${figures.scanListP50Ms.toFixed(1)} ms, p99 ${figures.scanListP99Ms.toFixed(1)} ms`,
    `  ${figures.batchCodes.toLocaleString('en')}-code batch ready in ${figures.batchReadySeconds.toFixed(1)} s; CSV ${figures.csvMegabytes.toFixed(0)} MB in ${figures.csvSeconds.toFixed(1)} s; emulator RSS ${figures.rssBeforeDownloadMb.toFixed(0)} MB before, peak ${figures.rssPeakDuringDownloadMb.toFixed(0)} MB during the download`,
  ].join('\n');
}

function throughputTable(rows: Row[]): string {
  let previous = '';
  const body = rows.map((row) => {
    const m = row.measurement;
    const title = row.title === previous ? '' : row.title;
    previous = row.title;
    const noisy = m.cpu.otherCores >= NOISY_CORES ? [`noisy: other processes used ${m.cpu.otherCores.toFixed(2)} cores`] : [];
    return [
      title, SERVER_LABELS[row.server], whole(m.requestsPerSecond), m.latencyP50Ms.toFixed(2), m.latencyP99Ms.toFixed(2), whole(m.cpu.serverUsPerRequest),
      String(m.non2xx), String(m.errors), row.emulatorRatio === undefined ? '' : row.emulatorRatio.toFixed(2), row.emulatorCpuRatio === undefined ? '' : row.emulatorCpuRatio.toFixed(2),
      [...row.flags.map((flag) => `FLAG ${flag}`), ...row.notes, ...noisy].join('; '),
    ];
  });
  const headers = ['request', 'server', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'non-2xx', 'errors', 'emulator ÷ this', 'by CPU', 'flag / note'];
  return table(headers, body, 'llrrrrrrrrl');
}

/** Other processes using this much of the machine during a row make its req/s unreliable. */
const NOISY_CORES = 0.2;

const STARTUP_LABELS: Record<StartupKind, string> = { emulator: 'emulator', 'node-http': 'node:http', 'express-sqlite': 'express+sqlite' };

function startupLines(report: BenchReport): string {
  const s = report.startup;
  if (!s) return `start to healthy: not measured (${report.startupError ?? 'unknown error'})`;
  const runs = (values: number[]) => values.map((ms) => whole(ms)).join(', ');
  const rows = Object.entries(s.servers).map(([kind, f]) => [
    STARTUP_LABELS[kind as StartupKind], whole(f.bestFreshMs), whole(f.medianFreshMs), whole(f.bestExistingMs), whole(f.medianExistingMs), whole(f.medianFreshCpuMs), whole(f.medianExistingCpuMs),
    f.idleRssMb.toFixed(1), f.laterRssMb.toFixed(1), `${f.launcher}; fresh ${runs(f.freshMs)}; existing ${runs(f.existingMs)}`,
  ]);
  const headers = ['server', 'fresh best', 'median', 'existing best', 'median', 'CPU fresh', 'CPU existing', `RSS ${s.idleSeconds} s MB`, `RSS ${s.laterSeconds} s MB`, 'command; runs (ms)'];
  return [
    `start to healthy (ms): spawn until GET /_emulator/health answers 200, ${Object.values(s.servers)[0]?.freshMs.length ?? 0} runs each, the servers in turn; CPU = median CPU time until healthy${s.otherCores >= NOISY_CORES ? ` (noisy: other processes used ${s.otherCores.toFixed(2)} cores meanwhile)` : ''}`,
    table(headers, rows, 'lrrrrrrrrl'),
  ].join('\n');
}

/** Left- or right-aligned columns ('l' / 'r' per column), two spaces apart. */
function table(headers: string[], rows: string[][], align: string): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (align[i] === 'r' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((width) => '─'.repeat(width))), ...rows.map(line)].join('\n');
}

export function writeReport(report: BenchReport): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `bench-${report.at.replaceAll(':', '-')}.json`);
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  return path;
}
