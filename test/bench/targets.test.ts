import { describe, expect, it } from 'vitest';
import type { Measurement } from '../../bench/load.js';
import { limitOnThisMachine } from '../../bench/machine.js';
import type { StartupFigures, StartupResult } from '../../bench/startup.js';
import { type Row, reportingReadTargets, startupTargets, throughputTargets, verifyTarget } from '../../bench/targets.js';

function measurement(requestsPerSecond: number, serverUsPerRequest = 100): Measurement {
  return {
    requestsPerSecond, latencyP50Ms: 1, latencyP99Ms: 2, responses: requestsPerSecond * 5, non2xx: 0, errors: 0, statusCodes: {}, seconds: 5,
    cpu: { serverUsPerRequest, serverCores: 1, otherCores: 0 },
  };
}

function row(id: Row['case'], server: Row['server'], requestsPerSecond: number): Row {
  return { case: id, title: id, server, measurement: measurement(requestsPerSecond), flags: [], notes: [] };
}

/** A server's starts: CPU until healthy as given, wall times (which the targets do not judge) far longer. */
function starts(freshCpuMs: number, existingCpuMs: number, idleRssMb: number): StartupFigures {
  return {
    launcher: 'test', freshMs: [3 * freshCpuMs], existingMs: [3 * existingCpuMs], bestFreshMs: 3 * freshCpuMs, bestExistingMs: 3 * existingCpuMs,
    medianFreshMs: 3 * freshCpuMs, medianExistingMs: 3 * existingCpuMs, medianFreshCpuMs: freshCpuMs, medianExistingCpuMs: existingCpuMs,
    idleRssMb, peakRssMb: idleRssMb, laterRssMb: idleRssMb,
  };
}

const quick = { nodeHttpRps: 43_700, nodeHttpUsPerRequest: 22, source: 'test' };

describe('bench targets are ratios measured in the same run', () => {
  it('judges GET /campaign against bare node:http at 0.80 and leaves unmeasured targets without a ratio', () => {
    const [campaign, production] = throughputTargets([row('campaign', 'node-http', 10_000), row('campaign', 'emulator', 8_000)]);
    expect(campaign).toMatchObject({ ratio: 0.8, pass: true });
    expect(production).toMatchObject({ ratio: null, pass: false });

    const [slower] = throughputTargets([row('campaign', 'node-http', 10_000), row('campaign', 'emulator', 7_900)]);
    expect(slower!.pass).toBe(false);
  });

  it('asks 1.2× the Express + SQLite baseline of production entries and mixed load, 1.0× plain Express of sandbox sessions', () => {
    const targets = throughputTargets([
      row('production-entry', 'express-sqlite', 1_000), row('production-entry', 'emulator', 1_190),
      row('sandbox-session', 'express', 1_000), row('sandbox-session', 'emulator', 1_000),
      row('mixed', 'express-sqlite', 1_000), row('mixed', 'emulator', 1_200),
    ]);
    expect(targets.map((target) => [target.ratio, target.pass])).toEqual([[null, false], [1.19, false], [1, true], [1.2, true]]);
  });

  it('judges the CPU time until healthy against the Express + SQLite start: existing at 1.0, fresh at 1.2; idle RSS at 1.15', () => {
    const startup = (emulator: StartupFigures): StartupResult => ({
      servers: { emulator, 'node-http': starts(50, 40, 45), 'express-sqlite': { ...starts(200, 150, 60), bestFreshMs: 200, bestExistingMs: 150, medianFreshMs: 200, medianExistingMs: 150 } }, idleSeconds: 3, laterSeconds: 10, otherCores: 0,
    });
    const [existing, fresh, rss] = startupTargets(startup(starts(240, 150, 69)));
    expect(existing).toMatchObject({ ratio: 1, pass: true });
    expect(fresh).toMatchObject({ ratio: 1.2, pass: true });
    expect(rss).toMatchObject({ ratio: 1.15, pass: true });

    const slow = startupTargets(startup(starts(241, 151, 69.1)));
    expect(slow.map((target) => target.pass)).toEqual([false, false, false]);
  });

  it('scales a time limit up by node:http CPU per response over the reference machine\'s 22 µs, never down', () => {
    expect(limitOnThisMachine(30, { nodeHttpRps: 10_000, nodeHttpUsPerRequest: 44, source: 'test' })).toBeCloseTo(60);
    expect(limitOnThisMachine(30, { nodeHttpRps: 90_000, nodeHttpUsPerRequest: 11, source: 'test' })).toBe(30);
  });

  it('judges every reporting read at 50 ms p99 unless it carries a stricter limit of its own', () => {
    const targets = reportingReadTargets([
      { read: 'collectors, limit 1000', scans: 1_000_000, p50Ms: 10, p99Ms: 45 },
      { read: 'scan list', scans: 1_000_000, p50Ms: 5, p99Ms: 25, limitMs: 20 },
    ], quick);
    expect(targets.map((target) => [target.ratio, target.pass])).toEqual([[0.9, true], [1.25, false]]);
  });

  it('does not count a harness verify with a stopped scenario, however fast', () => {
    const run = { wallMs: 20_000, summary: { pass: 1, fail: 0, warn: 0, manual: 0, inconclusive: 0 }, scenarios: 19, stopped: [] };
    expect(verifyTarget(run, quick)).toMatchObject({ pass: true });
    expect(verifyTarget({ ...run, stopped: [{ id: 'won' }] }, quick).pass).toBe(false);
    expect(verifyTarget({ ...run, wallMs: 30_001 }, quick).pass).toBe(false);
  });
});
