/**
 * Matrix runs recorded. A live verify gathers facts for minutes of Chromium; the checks judge them
 * in milliseconds. So each recorded matrix (the defect matrices, the locales' clean runs) keeps what
 * its live runs gathered (gzipped JSON under test/harness/recorded/<matrix>/), and a test run judges
 * the run's checks, as the code stands, on those facts, with a rotation of runs made live every time
 * to prove the recordings still hold what a run sees (the guide: "live, or on facts recorded from a
 * live run").
 *
 * - `HARNESS_FACTS=record`: every run is live (only those named in `HARNESS_LIVE_DEFECTS`, if any) and
 *   its recording is written (`npm run record:facts`), only when its checks' verdicts on the facts
 *   are what the test asserts (a defect's check failed, a clean run passed).
 * - `HARNESS_FACTS=live`: every run is live; nothing is written.
 * - otherwise: recordings are judged, the day's turn of each matrix is live (liveTurn, or those
 *   named in `HARNESS_LIVE_DEFECTS`), and a run without a recording is live.
 *
 * A recording is stale when a scenario it ran has changed, or one of the judged checks is fed by a
 * scenario it did not run: its test then fails and says to record again.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type CheckReport, evaluateChecks } from '../../harness/checks/evaluate.js';
import { CHECKS, CHECK_IDS } from '../../harness/checks/registry.js';
import { STATUSES } from '../../harness/checks/types.js';
import type { StateName } from '../../harness/journey-states.js';
import type { Fingerprint } from '../../harness/browser/in-page.js';
import type { Report } from '../../harness/report/types.js';
import { RunFacts } from '../../harness/run/facts.js';
import { BUILT_IN_SCENARIOS, loadScenarios } from '../../harness/scenarios/load.js';
import { SANDBOX_SCENARIOS, type Scenario } from '../../harness/scenarios/schema.js';

export type FactsMode = 'record' | 'live' | 'recorded';
export const FACTS_MODE: FactsMode = process.env.HARNESS_FACTS === 'record' || process.env.HARNESS_FACTS === 'live' ? process.env.HARNESS_FACTS : 'recorded';

/** Runs of each matrix made live on every test run (unless a matrix asks for another turn), besides those without a recording. */
export const LIVE_ROTATION = 2;

const RECORD_AGAIN = 'record again (npm run record:facts)';
const FOLDER = new URL('./recorded/', import.meta.url);
/** The built-in scenarios as they stand: what a recording's scenarios are compared with. */
const SCENARIOS = loadScenarios([BUILT_IN_SCENARIOS], CHECK_IDS).scenarios;

/** What a test reads of a run, live (its Report) or recorded: the checks' verdicts, their count by status, and how each scenario ended. */
export type Verdicts = Pick<Report, 'checks' | 'summary' | 'scenarios'>;

/** A run of a recorded matrix: its recording's name, the checks it is for (`--only`; none: every check), and whether verdicts are what its test asserts. */
export interface RecordedRun {
  name: string;
  only: string[];
  /** Only a live run whose verdicts this accepts is written as the recording (a miss shows in its test instead). */
  keeps: (verdicts: Verdicts) => boolean;
}

interface Recording {
  /** The scenarios the run ran, each with a digest of its definition. */
  scenarios: Array<{ id: string; sha: string }>;
  /** The agency's log, in a recording made before the run's facts held it (facts.agencyLog). */
  agencyLog?: string;
  facts: Record<string, unknown>;
}

const fileOf = (matrix: string, name: string) => new URL(`${matrix}/${name.replaceAll(':', '@')}.json.gz`, FOLDER);
const digest = (scenario: Scenario) => createHash('sha256').update(JSON.stringify(scenario)).digest('hex').slice(0, 16);
const checksOf = (only: readonly string[]) => CHECKS.filter((check) => only.length === 0 || only.includes(check.id));
const verdictsOf = (checks: CheckReport[], facts: RunFacts): Verdicts => ({
  checks, summary: Object.fromEntries(STATUSES.map((status) => [status, checks.filter((check) => check.status === status).length])) as Verdicts['summary'], scenarios: [...facts.outcomes.values()],
});

export const hasRecording = (matrix: string, name: string) => existsSync(fileOf(matrix, name));

/** The names of a matrix that run live this time, in `recorded` mode: the day's turn of `count`, and any named in HARNESS_LIVE_DEFECTS. */
export function liveTurn(names: readonly string[], count = LIVE_ROTATION, day = Math.floor(Date.now() / 86_400_000)): Set<string> {
  const named = (process.env.HARNESS_LIVE_DEFECTS ?? '').split(',').filter((name) => names.includes(name));
  if (FACTS_MODE === 'record') return new Set(named.length ? named : names);
  const turn = Array.from({ length: Math.min(count, names.length) }, (_, index) => names[(day * count + index) % names.length]!);
  return new Set([...turn, ...named]);
}

/** Writes a live run's facts as the recording of a matrix's run, when its checks' verdicts on them are what its test asserts. */
export function record(matrix: string, run: RecordedRun, facts: RunFacts, scenarios: readonly Scenario[]): void {
  if (!run.keeps(verdictsOf(evaluateChecks(facts, checksOf(run.only), scenarios), facts))) return;
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(facts)) {
    if (key === 'states') plain.states = { learned: facts.states.learned, pages: SANDBOX_SCENARIOS.map((state) => [state, facts.states.pageOf(state)]) };
    else plain[key] = value instanceof Map ? [...value.entries()] : value instanceof Set ? [...value] : value;
  }
  const recording: Recording = { scenarios: scenarios.map((scenario) => ({ id: scenario.id, sha: digest(scenario) })), facts: plain };
  mkdirSync(new URL(`${matrix}/`, FOLDER), { recursive: true });
  writeFileSync(fileOf(matrix, run.name), gzipSync(JSON.stringify(recording), { level: 9 }));
}

/** The verdicts of a run's checks (`only`; none: every check) on its recorded facts, judged by the code as it stands. */
export function judgeRecording(matrix: string, name: string, only: readonly string[]): Verdicts {
  const recording = JSON.parse(gunzipSync(readFileSync(fileOf(matrix, name))).toString('utf8')) as Recording;
  const gone = only.filter((id) => !CHECK_IDS.has(id));
  if (gone.length) throw new Error(`recording ${matrix}/${name}: no check ${gone.join(', ')} any more; ${RECORD_AGAIN}`);
  const checks = checksOf(only);
  const ran = SCENARIOS.filter((scenario) => recording.scenarios.some((recorded) => recorded.id === scenario.id && recorded.sha === digest(scenario)));
  const stale = SCENARIOS.filter((scenario) => scenario.feeds.some((id) => checks.some((check) => check.id === id)) && !ran.includes(scenario)).map((scenario) => scenario.id);
  if (stale.length) throw new Error(`recording ${matrix}/${name} is stale: scenario ${stale.join(', ')} changed or was not run; ${RECORD_AGAIN}`);
  const facts = factsOf(recording);
  return verdictsOf(evaluateChecks(facts, checks, ran), facts);
}

/** The recorded facts as the run held them. */
function factsOf(recording: Recording): RunFacts {
  const { config, origins, outDir, states, ...rest } = recording.facts as Pick<RunFacts, 'config' | 'origins' | 'outDir'> & { states: { learned: RunFacts['states']['learned']; pages: Array<[StateName, Fingerprint | undefined]> } };
  const facts = new RunFacts(config, origins, outDir);
  // A recording made before the facts held the agency's log kept its text beside them: the run read it, so it stands for what the run gathered.
  if (!('agencyLog' in rest) && config.agency_log && recording.agencyLog !== undefined) facts.agencyLog = { file: config.agency_log, text: recording.agencyLog };
  for (const [state, page] of states.pages) if (page) facts.states.report(state, page);
  facts.states.learned = states.learned;
  const target = facts as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(rest)) {
    const into = target[key];
    if (into instanceof Map) for (const [entry, item] of value as Array<[unknown, unknown]>) into.set(entry, item);
    else if (into instanceof Set) for (const item of value as unknown[]) into.add(item);
    else if (Array.isArray(into)) into.push(...(value as unknown[]));
    else target[key] = value;
  }
  return facts;
}
