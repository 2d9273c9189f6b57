/** What reporters receive: the run's metadata, progress, and the finished report. */
import type { Allowance } from '../checks/allowances.js';
import type { CheckReport } from '../checks/evaluate.js';
import type { Status } from '../checks/types.js';
import type { ScenarioOutcome } from '../run/facts.js';
import type { Scenario } from '../scenarios/schema.js';

export interface RunMeta {
  harness_version: string;
  started_at: string;
  emulator: string;
  callback: string;
  preview: string | null;
  /** The promotion verified: every console and control call of the run acted on it. */
  promotion: { id: number; slug: string; name: string; mechanic: string };
  only: string[] | null;
  out_dir: string;
  /** What the reader should know about this run, e.g. the plain-http loopback exception. */
  notes: string[];
  /** What the config asks the brand to accept, each with the checks it can change (checks/allowances.ts). */
  allowances: Allowance[];
  /** The run's upper bound in seconds (`--max-seconds`, or what its scenarios' own schedule needs). */
  max_seconds: number;
}

export interface Report {
  /** `tells`: what the agency's pages could still tell of an automated browser on this run (browser/tells.ts). */
  run: RunMeta & { finished_at: string; duration_ms: number; chromium: string; tells: string[] };
  summary: Record<Status, number>;
  checks: CheckReport[];
  scenarios: ScenarioOutcome[];
}

/** Every hook optional; the multiplexer calls each inside try/catch, so a broken reporter never breaks a run. */
export interface Reporter {
  /** The plan, before any scenario starts: the scenarios the run will drive and how many checks it will judge. */
  onBegin?(meta: RunMeta, scenarios: readonly Scenario[], checks: number): void;
  onScenarioBegin?(scenario: Scenario): void;
  onScenarioEnd?(outcome: ScenarioOutcome): void;
  onEnd?(report: Report): void | Promise<void>;
}

export interface ReporterOptions {
  outDir: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  color: boolean;
}
