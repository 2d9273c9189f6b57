/**
 * Runs scenarios side by side, each in its own browser contexts: the longest first (the polling
 * watches), so the run takes about as long as its longest scenario. `exclusive` scenarios run
 * alone, after the others, and so do those that edit terms other journeys share.
 */
import { NoPackKind } from '../emulator/packs.js';
import type { Scenario, Step } from '../scenarios/schema.js';
import type { ScenarioOutcome } from './facts.js';
import { type RunEnv, ScenarioRun } from './scenario-run.js';
import { STEPS } from './steps.js';

export interface RunnerHooks {
  onScenarioBegin?(scenario: Scenario): void;
  onScenarioEnd?(outcome: ScenarioOutcome): void;
}

/** Rough seconds a scenario takes: its waits and watches, plus a little per step. */
export function estimateSeconds(scenario: Scenario): number {
  const retryAfter = Math.max(0, ...scenario.steps.map((step) => (step.do === 'fault' ? (step.retry_after ?? 0) : 0)));
  const seconds = (step: Scenario['steps'][number]) => (step.do === 'wait' || step.do === 'watch_polling' ? step.seconds : step.do === 'wait_retry_after' ? retryAfter : 0.3);
  return scenario.steps.reduce((total, step) => total + seconds(step), 0);
}

export async function runScenarios(scenarios: readonly Scenario[], env: RunEnv, concurrency: number, hooks: RunnerHooks): Promise<Map<string, ScenarioRun>> {
  const runs = new Map<string, ScenarioRun>();
  const ordered = [...scenarios].sort((a, b) => estimateSeconds(b) - estimateSeconds(a));
  const runsAlone = (scenario: Scenario) => scenario.exclusive || editsSharedTerms(scenario, env);
  const shared = ordered.filter((scenario) => !runsAlone(scenario));
  const alone = ordered.filter(runsAlone);
  // Every journey gets its pack before anything starts: running out is a reason not to run at all,
  // while a scenario asking for an outcome the promotion never draws cannot start (its checks are inconclusive).
  for (const scenario of ordered) {
    const run = new ScenarioRun(scenario, env);
    try {
      await run.prepare();
    } catch (error) {
      if (!(error instanceof NoPackKind)) throw error;
      skipScenarios([scenario], error.message, env, hooks);
      continue;
    }
    runs.set(scenario.id, run);
  }
  const queue = shared.filter((scenario) => runs.has(scenario.id));
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await runOne(runs.get(next.id)!, env, hooks);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
  for (const scenario of alone.filter((candidate) => runs.has(candidate.id))) await runOne(runs.get(scenario.id)!, env, hooks);
  return runs;
}

/**
 * A terms edit for a country without terms of its own changes the promotion's default terms, which
 * every other such country's journeys read (a code unlock has terms for DE only): that scenario runs alone.
 */
function editsSharedTerms(scenario: Scenario, env: RunEnv): boolean {
  const own = env.facts.terms?.by_country ?? {};
  return scenario.steps.some((step) => step.do === 'edit_terms' && !own[scenario.world.journeys[step.journey]?.country ?? '']);
}

async function runOne(run: ScenarioRun, env: RunEnv, hooks: RunnerHooks): Promise<void> {
  const { scenario } = run;
  hooks.onScenarioBegin?.(scenario);
  const started = performance.now();
  let error: string | undefined;
  try {
    await playSteps(run);
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  } finally {
    await run.close();
  }
  const outcome: ScenarioOutcome = {
    id: scenario.id, title: scenario.title, status: error ? 'errored' : 'passed', durationMs: Math.round(performance.now() - started), ...(error ? { error } : {}),
  };
  env.facts.outcomes.set(scenario.id, outcome);
  hooks.onScenarioEnd?.(outcome);
}

/** The scenario's steps in order; the first that throws ends it, named by its number. */
async function playSteps(run: ScenarioRun): Promise<void> {
  for (const [index, step] of run.scenario.steps.entries()) {
    try {
      await (STEPS[step.do] as (run: ScenarioRun, step: Step) => Promise<void>)(run, step);
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new Error(`step ${index + 1} (${step.do}${'journey' in step && step.journey !== 'main' ? ` ${step.journey}` : ''}): ${message}`);
    }
  }
}

export function skipScenarios(scenarios: readonly Scenario[], reason: string, env: RunEnv, hooks: RunnerHooks): void {
  for (const scenario of scenarios) {
    const outcome: ScenarioOutcome = { id: scenario.id, title: scenario.title, status: 'skipped', durationMs: 0, error: reason };
    env.facts.outcomes.set(scenario.id, outcome);
    hooks.onScenarioEnd?.(outcome);
  }
}
