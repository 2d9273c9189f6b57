/** The targets, each checked against this run's figures. */
import { VERIFY_TARGET_MS, type VerifyMeasurement } from '../harness/bench.js';
import type { ReportingFigures } from './reporting.js';
import type { CaseId } from './cases.js';
import type { Measurement } from './load.js';
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
  measured: string;
  needed: string;
  value: number | null;
  pass: boolean;
}

/** Issue 4's scale targets: scan list p99, batch generation time, RSS while the batch downloads. */
export function reportingTargets(figures: ReportingFigures): TargetResult[] {
  const target = (name: string, value: number, unit: string, limit: number): TargetResult => ({
    target: name, measured: `${value.toFixed(1)} ${unit}`, needed: `< ${limit} ${unit}`, value, pass: value < limit,
  });
  return [
    target(`scan list p99, 100 rows with since, ${figures.scans.toLocaleString('en')} scans`, figures.scanListP99Ms, 'ms', 20),
    target(`${figures.batchCodes.toLocaleString('en')}-code batch, POST to export_ready`, figures.batchReadySeconds, 's', 15),
    target('emulator RSS during its CSV download (peak)', figures.rssPeakDuringDownloadMb, 'MB', 150),
  ];
}

/** Issue 6: a full `harness verify` on the reference agency; a run with stopped scenarios does not count. */
export function verifyTarget(run: VerifyMeasurement): TargetResult {
  const seconds = run.wallMs / 1000;
  const stopped = run.stopped.length > 0 ? ` (${run.stopped.length} scenario(s) stopped early)` : '';
  return { target: `harness verify, ${run.scenarios} scenarios, wall time`, measured: `${seconds.toFixed(1)} s${stopped}`, needed: `< ${VERIFY_TARGET_MS / 1000} s`, value: seconds, pass: run.wallMs < VERIFY_TARGET_MS && stopped === '' };
}

export function checkTargets(rows: Row[], startup: StartupResult | undefined): TargetResult[] {
  const rate = (id: CaseId, server: ServerKind) => rows.find((row) => row.case === id && row.server === server)?.measurement.requestsPerSecond;
  const campaign = rate('campaign', 'emulator');
  const express = rate('campaign', 'express');
  const ratio = campaign !== undefined && express ? campaign / express : null;
  const entries = rate('production-entry', 'emulator') ?? null;
  const results: TargetResult[] = [
    { target: 'GET /campaign ÷ plain Express', value: ratio, measured: fixed(ratio, 2), needed: '≥ 0.80', pass: ratio !== null && ratio >= 0.8 },
    { target: 'production entries per second', value: entries, measured: entries === null ? 'n/a' : `${whole(entries)} /s`, needed: '≥ 4,000 /s', pass: entries !== null && entries >= 4000 },
  ];
  const fresh = startup?.medianFreshMs ?? null;
  const existing = startup?.medianExistingMs ?? null;
  const rss = startup?.idleRssMb ?? null;
  results.push(
    { target: 'start to healthy, fresh data folder (median)', value: fresh, measured: fresh === null ? 'n/a' : `${whole(fresh)} ms`, needed: '< 300 ms', pass: fresh !== null && fresh < 300 },
    { target: 'start to healthy, existing data folder (median)', value: existing, measured: existing === null ? 'n/a' : `${whole(existing)} ms`, needed: '< 300 ms', pass: existing !== null && existing < 300 },
    { target: `idle RSS after ${startup?.idleSeconds ?? '?'} s`, value: rss, measured: rss === null ? 'n/a' : `${rss.toFixed(1)} MB`, needed: '< 70 MB', pass: rss !== null && rss < 70 },
  );
  return results;
}

export function whole(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function fixed(value: number | null, digits: number): string {
  return value === null ? 'n/a' : value.toFixed(digits);
}
