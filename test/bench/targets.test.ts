import { describe, expect, it } from 'vitest';
import type { Measurement } from '../../bench/load.js';
import { limitOnThisMachine } from '../../bench/machine.js';
import type { StartupFigures, StartupResult } from '../../bench/startup.js';
import { type Row, reportingReadTargets, startupTargets, throughputTargets, verifyTargets, verifyUnderLoadTarget } from '../../bench/targets.js';

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
  it('guards GET /campaign at 2.0× plain Express and leaves unmeasured targets without a ratio', () => {
    const [campaign, production] = throughputTargets([row('campaign', 'express', 10_000), row('campaign', 'emulator', 20_000)]);
    expect(campaign).toMatchObject({ ratio: 2, pass: true });
    expect(production).toMatchObject({ ratio: null, pass: false });

    const [slower] = throughputTargets([row('campaign', 'express', 10_000), row('campaign', 'emulator', 19_900)]);
    expect(slower!.pass).toBe(false);
  });

  it('guards production entries and mixed load at 1.0× the Express + SQLite baseline within a 10% noise band, sandbox sessions at 0.8× plain Express', () => {
    const judged = (entry: number, sandbox: number, mixed: number) => throughputTargets([
      row('production-entry', 'express-sqlite', 1_000), row('production-entry', 'emulator', entry),
      row('sandbox-session', 'express', 1_000), row('sandbox-session', 'emulator', sandbox),
      row('mixed', 'express-sqlite', 1_000), row('mixed', 'emulator', mixed),
    ]);
    expect(judged(900, 800, 900).map((target) => [target.ratio, target.pass])).toEqual([[null, false], [0.9, true], [0.8, true], [0.9, true]]);
    expect(judged(899, 799, 899).map((target) => target.pass)).toEqual([false, false, false, false]);
    expect(judged(900, 800, 900).map((target) => target.needed)).toEqual(['≥ 2.00', '≥ 0.90 (line 1.00, noise band 10%)', '≥ 0.80', '≥ 0.90 (line 1.00, noise band 10%)']);
  });

  it('judges the CPU time until healthy against the Express + SQLite start: existing at 1.5, fresh at 2.0, each within a 10% noise band; idle RSS at 1.15', () => {
    const startup = (emulator: StartupFigures): StartupResult => ({
      servers: { emulator, 'node-http': starts(50, 40, 45), 'express-sqlite': { ...starts(200, 150, 60), bestFreshMs: 200, bestExistingMs: 150, medianFreshMs: 200, medianExistingMs: 150 } }, idleSeconds: 3, laterSeconds: 10, otherCores: 0,
    });
    const [existing, fresh, rss] = startupTargets(startup(starts(440, 247.5, 69)));
    expect(existing).toMatchObject({ ratio: 1.65, pass: true, needed: '≤ 1.65 (line 1.50, noise band 10%)' });
    expect(fresh).toMatchObject({ ratio: 2.2, pass: true, needed: '≤ 2.20 (line 2.00, noise band 10%)' });
    expect(rss).toMatchObject({ ratio: 1.15, pass: true });

    const slow = startupTargets(startup(starts(441, 248, 69.1)));
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

  const cpu = (nodeMs: number, chromiumMs: number) => ({ nodeMs, chromiumMs, chromiumByType: { renderer: chromiumMs }, machineMs: nodeMs + chromiumMs, totalMs: nodeMs + chromiumMs });
  const verifyRun = {
    wallMs: 14_000, cpu: cpu(3_000, 21_000), summary: { pass: 2, fail: 0, warn: 0, manual: 0, inconclusive: 0 },
    statuses: { 'a.b': 'pass', 'c.d': 'pass' } as const, scenarios: 19, boundSeconds: 600, stopped: [],
  };

  it('judges harness verify at 20 s of wall time and 25 CPU-seconds of its processes, scaled, and does not count a run with a stopped scenario', () => {
    expect(verifyTargets({ ...verifyRun, wallMs: 20_000, cpu: cpu(4_000, 21_000) }, quick).map((target) => target.pass)).toEqual([true, true]);
    expect(verifyTargets({ ...verifyRun, stopped: [{ id: 'won' }] }, quick).map((target) => target.pass)).toEqual([false, false]);
    expect(verifyTargets({ ...verifyRun, wallMs: 20_001 }, quick).map((target) => target.pass)).toEqual([false, true]);
    expect(verifyTargets({ ...verifyRun, cpu: cpu(4_000, 21_001) }, quick).map((target) => target.pass)).toEqual([true, false]);
    expect(verifyTargets({ ...verifyRun, wallMs: 39_000 }, { ...quick, nodeHttpUsPerRequest: 44 }).map((target) => target.pass)).toEqual([true, true]);
  });

  it('asks the verify beside busy cores for the quiet run\'s status on every check, whatever its wall time', () => {
    expect(verifyUnderLoadTarget(verifyRun, { ...verifyRun, wallMs: 40_000 }, 2)).toMatchObject({ pass: true });
    const moved = verifyUnderLoadTarget(verifyRun, { ...verifyRun, statuses: { 'a.b': 'pass', 'c.d': 'inconclusive' } }, 2);
    expect(moved).toMatchObject({ pass: false });
    expect(moved.figures).toContain('c.d pass → inconclusive');
    expect(verifyUnderLoadTarget(verifyRun, { ...verifyRun, statuses: { 'a.b': 'pass' } }, 2).pass).toBe(false);
  });
});
