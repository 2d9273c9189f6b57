/**
 * The harness's test world: an emulator in memory (real clock: agencies poll in real time), one of
 * the two reference agencies with the defects asked for and its log in a file, and a
 * harness.config.json naming the log (and, for the single-page agency, what its own
 * harness.config.json tells the harness: its markers). `approved` registers the URLs, covers the
 * sandbox and approves beforehand, as a brand that approved earlier would have, so a run can go
 * straight to the production journeys.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Browser } from 'playwright-core';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { approve } from '../../emulator/use-cases/console/approval.js';
import { setCallbacks } from '../../emulator/use-cases/console/callbacks.js';
import { isRefused } from '../../emulator/wire-contract.js';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import type { Fixture } from '../../emulator/fixture.js';
import { createLogger } from '../../emulator/logger.js';
import { type Running, startServer } from '../../emulator/server.js';
import { findPromotion } from '../../emulator/store/promotions.js';
import type { DefectName } from '../../fixtures/agency-reference/defects.js';
import type { Locale } from '../../fixtures/locales.js';
import { createAgencyLogger } from '../../fixtures/agency-reference/logger.js';
import { type AgencyOptions, startAgency } from '../../fixtures/agency-reference/server.js';
import type { SpaDefectName } from '../../fixtures/agency-spa/defects.js';
import { createSpaLogger } from '../../fixtures/agency-spa/log.js';
import { type SpaAgencyOptions, startSpaAgency } from '../../fixtures/agency-spa/server.js';
import type { CheckReport } from '../../harness/checks/evaluate.js';
import type { Report } from '../../harness/report/types.js';
import { type VerifyOptions, verify } from '../../harness/verify.js';
import { coverSandbox, fetchPost } from '../support/sandbox-coverage.js';
import { FACTS_MODE, type RecordedRun, type Verdicts, hasRecording, judgeRecording, liveTurn, record } from './recorded.js';
import { DEFAULT_FIXTURE } from '../world.js';

export interface HarnessWorldOptions {
  /** The reference agency (default), or the single-page one (fixtures/agency-spa). */
  kind?: 'reference' | 'spa';
  defects?: Array<DefectName | SpaDefectName>;
  approved?: boolean;
  config?: Record<string, unknown>;
  /** Changes to the default world, e.g. a promotion that is not live. */
  fixture?: (fixture: Fixture) => Fixture;
  /** How the reference agency is built: where the rules leave it open (what it offers after a 429, pages that name no state), or hostile. */
  agency?: Pick<AgencyOptions, 'afterRateLimit' | 'hostile' | 'unmarkedStates' | 'consentCheckedBy' | 'loadingLanding' | 'twoOrigins' | 'consentInDialog' | 'agePage' | 'confirmPage'>;
  /** How the single-page agency draws, e.g. as slowly as on an old phone. */
  spa?: Pick<SpaAgencyOptions, 'renderDelayMs'>;
  /** The promotion (slug) whose keys the agency holds and which `approved` approves; default: the default one. */
  promotion?: string;
  /** An emulator already running on the default fixture (a defect matrix's lane): reset first, left running on close. */
  emulator?: Running;
  /** The agency's language (`--locale`); default its own (English, or German for the single-page one). */
  locale?: Locale;
  /** Tell the harness only what any agency must: its log (no markers, even for the single-page agency). */
  unconfigured?: boolean;
}

/** The single-page agency's own harness.config.json: all the harness is told about it. */
const SPA_CONFIG = JSON.parse(readFileSync(new URL('../../fixtures/agency-spa/harness.config.json', import.meta.url), 'utf8')) as { markers: unknown };

export async function harnessWorld(options: HarnessWorldOptions = {}) {
  const folder = mkdtempSync(join(tmpdir(), 'harness-world-'));
  const fixture = options.fixture ? options.fixture(structuredClone(DEFAULT_FIXTURE)) : DEFAULT_FIXTURE;
  if (options.emulator && options.fixture) throw new Error('harnessWorld: a shared emulator runs the default fixture only');
  const emulator = options.emulator ?? (await startServer({ fixture, data: ':memory:', host: '127.0.0.1', port: 0, logger: createLogger('emulator', { level: 'silent' }) }));
  if (options.emulator) await resetEmulator(emulator);
  const promotionId = options.promotion === undefined ? undefined : findPromotion(emulator.world.db, options.promotion)!.id;
  const env = envValues(emulator.world, promotionId);
  const agencyLog = join(folder, 'agency.log');
  writeFileSync(agencyLog, '');
  const keys = { sandbox: env.sandbox_key, production: env.production_key };
  const destination = pino.destination({ dest: agencyLog, sync: true });
  const agency = options.kind === 'spa'
    ? await startSpaAgency({ port: 0, emulatorUrl: emulator.baseUrl, defects: (options.defects ?? []) as SpaDefectName[], keys, logger: createSpaLogger(destination), ...options.spa, locale: options.locale })
    : await startAgency({ ...options.agency, port: 0, emulatorUrl: emulator.baseUrl, defects: (options.defects ?? []) as DefectName[], keys, logger: createAgencyLogger(destination), locale: options.locale });
  const config = join(folder, 'harness.config.json');
  writeFileSync(config, JSON.stringify({ ...(options.kind === 'spa' && !options.unconfigured ? { markers: SPA_CONFIG.markers } : {}), agency_log: agencyLog, ...options.config }));
  if (options.approved) {
    const change = setCallbacks(emulator.world, { production: agency.callbackUrl, preview: agency.previewUrl }, promotionId);
    if (isRefused(change)) throw new Error(JSON.stringify(change.refused));
    await coverSandbox(fetchPost(emulator.baseUrl, env.sandbox_key!));
    if (isRefused(approve(emulator.world, promotionId))) throw new Error('the test world could not be approved');
  }
  return {
    emulator, agency, config, folder, agencyLog,
    /** Options for `verify` or the CLI pointing at this world. */
    target: { callback: agency.callbackUrl, preview: agency.previewUrl, emulator: emulator.baseUrl, config, out: join(folder, 'report') },
    /** verify() against this world, silent unless reporters are given. */
    verify(more: Partial<VerifyOptions> = {}): Promise<Report> {
      return verify({ ...this.target, reporters: [], stderr: quiet(), ...more });
    },
    /** `emulator reset`, through the control plane as the CLI sends it: the same emulator, its world seeded again. */
    reset: () => resetEmulator(emulator),
    async close() {
      await agency.close();
      if (!options.emulator) await emulator.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

export type HarnessWorld = Awaited<ReturnType<typeof harnessWorld>>;

/** A harness world for the tests of the file or describe block this is called in: started before them, closed after; read it inside a test. */
export function useHarnessWorld(options: HarnessWorldOptions): () => HarnessWorld {
  let world: HarnessWorld | undefined;
  beforeAll(async () => {
    world = await harnessWorld(options);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });
  return () => world!;
}

export function quiet(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

/** `emulator reset`, through the control plane as the CLI sends it: the same emulator, its world seeded again. */
async function resetEmulator(emulator: Running): Promise<void> {
  const answer = await fetch(`${emulator.baseUrl}/_emulator/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  if (!answer.ok) throw new Error(`reset answered ${answer.status}`);
}

/** One run of a matrix: a world, and the checks whose verdicts the run is for (`--only`). */
export interface MatrixRun {
  name: string;
  only: string[];
  options: HarnessWorldOptions;
  /** Given the run's facts before they are judged (a recording, test/harness/recorded.ts). */
  onFacts?: VerifyOptions['onFacts'];
}

/**
 * A matrix of verifies: before its tests, each run once, never retried (a miss fails its test).
 * The runs share the file's browser and take turns on lanes, an emulator per core, reset between
 * the runs it serves; the agency starts afresh for each (its defects and locale are fixed when it
 * starts). Five fresh worlds at once on 2 cores only made each run slower, and a page read too
 * late made a check inconclusive. The runs happen in the matrix's `beforeAll`, so a run waiting
 * for its lane never counts against a test's timeout.
 */
export function useRunMatrix(browser: () => Browser, runs: MatrixRun[], lanes = availableParallelism()) {
  const reports = new Map<string, Report>();
  const emulators: Running[] = [];
  beforeAll(async () => {
    const queue = [...runs];
    const lane = async () => {
      const emulator = await startServer({ fixture: DEFAULT_FIXTURE, data: ':memory:', host: '127.0.0.1', port: 0, logger: createLogger('emulator', { level: 'silent' }) });
      emulators.push(emulator);
      for (let next = queue.shift(); next; next = queue.shift()) {
        const world = await harnessWorld({ ...next.options, emulator, config: { trace: 'off', concurrency: 4, ...next.options.config } });
        try {
          reports.set(next.name, await world.verify({ only: next.only, browser: browser(), onFacts: next.onFacts }));
        } finally {
          await world.close();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(lanes, runs.length) }, lane));
  }, 60 * 60_000);
  afterAll(async () => {
    await Promise.all(emulators.map((emulator) => emulator.close()));
  });
  return (name: string): Report => {
    const report = reports.get(name);
    if (!report) throw new Error(`no run named ${name}`);
    return report;
  };
}

/** A run of a recorded matrix: a matrix run whose facts are kept as its recording (test/harness/recorded.ts). */
export interface RecordedMatrixRun extends Omit<MatrixRun, 'onFacts'>, RecordedRun {}

/**
 * A matrix of runs judged on their recorded facts (test/harness/recorded.ts, under
 * `recorded/<matrix>/`), except the runs of `turn` (by default the day's LIVE_ROTATION) and those not
 * recorded yet, which run live (useRunMatrix); with `HARNESS_FACTS=record` or `live` every run is live.
 */
export function useRecordedMatrix(browser: () => Browser, matrix: string, runs: RecordedMatrixRun[], turn = liveTurn(runs.map(({ name }) => name))) {
  const live = runs.filter(({ name }) => FACTS_MODE === 'live' || turn.has(name) || !hasRecording(matrix, name));
  const reportOf = useRunMatrix(browser, live.map((run) => ({
    name: run.name, only: run.only, options: run.options,
    onFacts: FACTS_MODE === 'record' ? (facts, scenarios) => record(matrix, run, facts, scenarios) : undefined,
  })));
  const judged = new Map<string, Verdicts>();
  return (name: string): Verdicts => {
    if (live.some((run) => run.name === name)) return reportOf(name);
    const run = runs.find((candidate) => candidate.name === name);
    if (!run) throw new Error(`no run named ${name}`);
    if (!judged.has(name)) judged.set(name, judgeRecording(matrix, name, run.only));
    return judged.get(name)!;
  };
}

/** One row of a defect matrix: the world with the defect switched on, and the check tied to it. */
export interface DefectCase {
  name: string;
  check: string;
  options: HarnessWorldOptions & { defects: string[] };
}

/**
 * A defect matrix: the verdict on each case's check with its defect switched on, on an approved world,
 * recorded (useRecordedMatrix); `.scenarios(name)` tells how each scenario of that run ended.
 */
export function useDefectMatrix(browser: () => Browser, matrix: string, cases: DefectCase[]) {
  const verdictsOf = useRecordedMatrix(browser, matrix, cases.map(({ name, check, options }) => ({
    name, only: [check], options: { ...options, approved: true }, keeps: ({ checks: [verdict] }) => verdict?.status === 'fail',
  })));
  const verdictOf = (name: string): CheckReport | undefined => {
    const check = cases.find((candidate) => candidate.name === name)?.check;
    return verdictsOf(name).checks.find((candidate) => candidate.id === check);
  };
  return Object.assign(verdictOf, { scenarios: (name: string) => verdictsOf(name).scenarios });
}
