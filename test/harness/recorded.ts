/**
 * Defect runs recorded. A live run of a defect gathers facts for a few minutes of Chromium; the check
 * tied to the defect judges them in a millisecond. So each defect matrix keeps what its live runs
 * gathered (gzipped JSON under test/harness/recorded/<matrix>/), and a test run judges the tied
 * check, as the code stands, on those facts, with a rotation of defects run live every time to prove
 * the recordings still hold what a run sees (the guide: "live, or on facts recorded from a live run").
 *
 * - `HARNESS_FACTS=record`: every defect runs live (only those named in `HARNESS_LIVE_DEFECTS`, if any)
 *   and its recording is written (`npm run record:defects`), only when the run gave the tied check's failure.
 * - `HARNESS_FACTS=live`: every defect runs live; nothing is written.
 * - otherwise: recordings are judged, LIVE_ROTATION defects per matrix run live (the day's turn, or
 *   those named in `HARNESS_LIVE_DEFECTS`), and a defect without a recording runs live.
 *
 * A recording is stale when a scenario it ran has changed, or the check is fed by a scenario it
 * did not run: its test then fails and says to record again.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type CheckReport, evaluateChecks } from '../../harness/checks/evaluate.js';
import { CHECKS, CHECK_IDS } from '../../harness/checks/registry.js';
import type { StateName } from '../../harness/intents.js';
import type { Fingerprint } from '../../harness/pages/states.js';
import { RunFacts } from '../../harness/run/facts.js';
import { BUILT_IN_SCENARIOS, loadScenarios } from '../../harness/scenarios/load.js';
import { SANDBOX_SCENARIOS, type Scenario } from '../../harness/scenarios/schema.js';

export type FactsMode = 'record' | 'live' | 'recorded';
export const FACTS_MODE: FactsMode = process.env.HARNESS_FACTS === 'record' || process.env.HARNESS_FACTS === 'live' ? process.env.HARNESS_FACTS : 'recorded';

/** Defects of each matrix run live on every test run, besides those without a recording. */
export const LIVE_ROTATION = 2;

const FOLDER = new URL('./recorded/', import.meta.url);
/** The built-in scenarios as they stand: what a recording's scenarios are compared with. */
const SCENARIOS = loadScenarios([BUILT_IN_SCENARIOS], CHECK_IDS).scenarios;

interface Recording {
  check: string;
  /** The scenarios the run ran, each with a digest of its definition. */
  scenarios: Array<{ id: string; sha: string }>;
  agencyLog: string;
  facts: Record<string, unknown>;
}

const fileOf = (matrix: string, name: string) => new URL(`${matrix}/${name.replaceAll(':', '@')}.json.gz`, FOLDER);
const digest = (scenario: Scenario) => createHash('sha256').update(JSON.stringify(scenario)).digest('hex').slice(0, 16);

export const hasRecording = (matrix: string, name: string) => existsSync(fileOf(matrix, name));

/** The names of a matrix that run live this time, in `recorded` mode: the day's turn of LIVE_ROTATION, and any named in HARNESS_LIVE_DEFECTS. */
export function liveTurn(names: readonly string[], day = Math.floor(Date.now() / 86_400_000)): Set<string> {
  const named = (process.env.HARNESS_LIVE_DEFECTS ?? '').split(',').filter((name) => names.includes(name));
  if (FACTS_MODE === 'record') return new Set(named.length ? named : names);
  const turn = Array.from({ length: Math.min(LIVE_ROTATION, names.length) }, (_, index) => names[(day * LIVE_ROTATION + index) % names.length]!);
  return new Set([...turn, ...named]);
}

/** Writes a live run's facts as the recording of a matrix's case, when they fail its check (else its test shows the live verdict). */
export function record(matrix: string, name: string, check: string, facts: RunFacts, scenarios: readonly Scenario[]): void {
  const tied = CHECKS.find((candidate) => candidate.id === check)!;
  if (evaluateChecks(facts, [tied], scenarios)[0]!.status !== 'fail') return;
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(facts)) {
    if (key === 'states') plain.states = { learned: facts.states.learned, pages: SANDBOX_SCENARIOS.map((state) => [state, facts.states.pageOf(state)]) };
    else plain[key] = value instanceof Map ? [...value.entries()] : value;
  }
  const agencyLog = facts.config.agency_log && existsSync(facts.config.agency_log) ? readFileSync(facts.config.agency_log, 'utf8') : '';
  const recording: Recording = { check, scenarios: scenarios.map((scenario) => ({ id: scenario.id, sha: digest(scenario) })), agencyLog, facts: plain };
  mkdirSync(new URL(`${matrix}/`, FOLDER), { recursive: true });
  writeFileSync(fileOf(matrix, name), gzipSync(JSON.stringify(recording), { level: 9 }));
}

/** The tied check's verdict on a case's recorded facts, judged by the code as it stands. */
export function judgeRecording(matrix: string, name: string): CheckReport {
  const recording = JSON.parse(gunzipSync(readFileSync(fileOf(matrix, name))).toString('utf8')) as Recording;
  const check = CHECKS.find((candidate) => candidate.id === recording.check);
  if (!check) throw new Error(`recording ${matrix}/${name}: no check ${recording.check} any more; record again (npm run record:defects)`);
  const ran = SCENARIOS.filter((scenario) => recording.scenarios.some((recorded) => recorded.id === scenario.id && recorded.sha === digest(scenario)));
  const stale = SCENARIOS.filter((scenario) => scenario.feeds.includes(check.id) && !ran.includes(scenario)).map((scenario) => scenario.id);
  if (stale.length) throw new Error(`recording ${matrix}/${name} is stale: scenario ${stale.join(', ')} changed or was not run; record again (npm run record:defects)`);
  const folder = mkdtempSync(join(tmpdir(), 'recorded-'));
  try {
    return evaluateChecks(factsOf(recording, join(folder, 'agency.log')), [check], ran)[0]!;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The recorded facts as the run held them, its agency's log written to `log`. */
function factsOf(recording: Recording, log: string): RunFacts {
  const { config, origins, outDir, states, ...rest } = recording.facts as Pick<RunFacts, 'config' | 'origins' | 'outDir'> & { states: { learned: RunFacts['states']['learned']; pages: Array<[StateName, Fingerprint | undefined]> } };
  writeFileSync(log, recording.agencyLog);
  const facts = new RunFacts({ ...config, agency_log: config.agency_log ? log : undefined }, origins, outDir);
  for (const [state, page] of states.pages) if (page) facts.states.report(state, page);
  facts.states.learned = states.learned;
  const target = facts as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(rest)) {
    const into = target[key];
    if (into instanceof Map) for (const [entry, item] of value as Array<[unknown, unknown]>) into.set(entry, item);
    else if (Array.isArray(into)) into.push(...(value as unknown[]));
    else target[key] = value;
  }
  return facts;
}
