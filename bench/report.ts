/** The printed tables and the JSON file under bench-results/. */
import type { VerifyMeasurement } from '../harness/bench.js';
import type { ReportingFigures } from './reporting.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadOptions } from './load.js';
import { RESULTS_DIR } from './paths.js';
import { SERVER_LABELS } from './servers.js';
import type { StartupResult } from './startup.js';
import { type Row, type TargetResult, whole } from './targets.js';

export interface BenchReport {
  at: string;
  machine: { node: string; cpus: number; cpuModel: string };
  load: LoadOptions & { generator: string };
  notes: string[];
  rows: Row[];
  startup?: StartupResult;
  startupError?: string;
  reporting?: ReportingFigures;
  verify?: VerifyMeasurement;
  targets: TargetResult[];
}

export function formatReport(report: BenchReport): string {
  const lines = [
    `promo-emulator bench · ${report.at} · Node ${report.machine.node} · ${report.machine.cpus} × ${report.machine.cpuModel}`,
    `load: ${report.load.generator}, ${report.load.connections} connections, ${report.load.warmupSeconds} s warm-up + ${report.load.seconds} s measured per row, 127.0.0.1`,
    ...report.notes.map((note) => `note: ${note}`),
    'columns: CPU µs/req = server process CPU time per response (steady when the machine is busy, unlike req/s); emulator ÷ this = emulator req/s over this server\'s; by CPU = this server\'s CPU µs/req over the emulator\'s',
    '',
    throughputTable(report.rows),
    '',
    ...(report.startup || report.startupError ? [startupLines(report), ''] : []),
    ...(report.reporting ? [reportingLines(report.reporting), ''] : []),
    ...(report.targets.length === 0
      ? []
      : [table(['target', 'measured', 'needed', 'result'], report.targets.map((target) => [target.target, target.measured, target.needed, target.pass ? 'pass' : 'MISS']), 'llll')]),
  ];
  const flagged = report.rows.filter((row) => row.flags.length > 0);
  lines.push('', flagged.length === 0 ? 'every measured response was 2xx; no connection errors' : `FLAGGED: ${flagged.length} row(s) had errors, see the flag column`);
  return lines.join('\n');
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

function startupLines(report: BenchReport): string {
  const s = report.startup;
  if (!s) return `start to healthy: not measured (${report.startupError ?? 'unknown error'})`;
  const runs = (values: number[]) => values.map((ms) => whole(ms)).join(', ');
  return [
    `start to healthy: ${s.launcher}, spawn until GET /_emulator/health answers 200${s.otherCores >= NOISY_CORES ? ` (noisy: other processes used ${s.otherCores.toFixed(2)} cores meanwhile)` : ''}`,
    `  fresh data folder:    median ${whole(s.medianFreshMs)} ms (runs: ${runs(s.freshMs)} ms; CPU until healthy: median ${whole(s.medianFreshCpuMs)} ms)`,
    `  existing data folder: median ${whole(s.medianExistingMs)} ms (runs: ${runs(s.existingMs)} ms; CPU until healthy: median ${whole(s.medianExistingCpuMs)} ms)`,
    `  idle RSS after ${s.idleSeconds} s: ${s.idleRssMb.toFixed(1)} MB (peak ${s.peakRssMb.toFixed(1)} MB); after ${s.laterSeconds} s: ${s.laterRssMb.toFixed(1)} MB`,
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
