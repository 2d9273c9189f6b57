/**
 * Runs scenarios side by side, each in its own browser contexts: the longest first (the polling
 * watches), so the run takes about as long as its longest scenario. `exclusive` scenarios run
 * alone, after the others, and so do those that edit terms other journeys share.
 *
 * A run is CPU-bound (Chromium), so the scenarios that then watch for seconds (the watchers) get
 * the machine to themselves until they watch: the others start once every watcher has reached its
 * watch or ended. Started together, all of them shared the cores, and the watches began late. The
 * longest watcher (the polling schedule: 17 s from its entry) starts alone, the other watchers once
 * it watches: its watch ends the run (a verify of the reference agency: 25.6 -> 23.3 s, decisions/018).
 * Until it watches, the others' axe runs and screenshots wait (ScenarioRun.leads).
 */
import { memoryUnwatched, sandboxOff } from '../browser/chromium.js';
import { NoPackKind } from '../emulator-client/packs.js';
import { secondsUntilPoll } from './polling.js';
import type { Scenario, Step } from '../scenarios/schema.js';
import type { ScenarioOutcome } from './facts.js';
import { type RunEnv, ScenarioRun } from './scenario-run.js';
import { STEPS } from './steps.js';

export interface RunnerHooks {
  onScenarioBegin?(scenario: Scenario): void;
  onScenarioEnd?(outcome: ScenarioOutcome): void;
}

/**
 * What a step may take beyond its own waits and watches: every page it reads may take its 10 to 15
 * s to draw, a loaded machine takes seconds for a click, and a preview's screenshots wait for the
 * run's lead to reach its watch (capture.ts). A step past it ends its scenario.
 */
const STEP_MARGIN_S = 120;

/** A step's upper bound in seconds: its waits (and its own timeout) plus the margin. */
function stepBoundSeconds(scenario: Scenario, step: Step): number {
  const own = 'timeout_s' in step ? step.timeout_s : 0;
  return (waitSeconds(scenario, step) ?? 0) + own + STEP_MARGIN_S;
}

/**
 * The default bound of a whole run (`--max-seconds`): its scenarios' own schedule, as if run one
 * after another at the given concurrency, twice over, plus each step's margin once: generous for a
 * loaded machine, yet a run that hangs still ends within minutes.
 */
export function defaultRunSeconds(scenarios: readonly Scenario[], concurrency: number): number {
  const total = scenarios.reduce((sum, scenario) => sum + estimateSeconds(scenario), 0);
  const longest = Math.max(0, ...scenarios.map(estimateSeconds));
  return Math.ceil(2 * (longest + total / Math.max(1, concurrency)) + 2 * STEP_MARGIN_S);
}

/** Seconds a step waits, leaving the CPU to others; undefined for a step that works. A watch ends at its last poll due, or once quiet after the first. */
function waitSeconds(scenario: Scenario, step: Step): number | undefined {
  if (step.do === 'wait') return step.seconds;
  if (step.do === 'watch_polling') return Math.min(step.seconds, step.mode === 'schedule' ? secondsUntilPoll(step.polls) : secondsUntilPoll(1) + step.quiet_seconds);
  if (step.do !== 'wait_retry_after') return undefined;
  return Math.max(0, ...scenario.steps.map((other) => (other.do === 'fault' ? (other.retry_after ?? 0) : 0)));
}

/** Rough seconds a scenario takes: its waits and watches, plus a little per step. */
export function estimateSeconds(scenario: Scenario): number {
  return scenario.steps.reduce((total, step) => total + (waitSeconds(scenario, step) ?? 0.3), 0);
}

/** A wait this long is worth giving its scenario a head start, so that the others' work fills it. */
const WATCH_SECONDS = 5;

/** A step that waits long enough to be worth a head start. */
const isWatch = (scenario: Scenario, step: Step) => (waitSeconds(scenario, step) ?? 0) >= WATCH_SECONDS;

/** The scenarios that wait for seconds, each gets the machine first until its first such wait. */
export function isWatcher(scenario: Scenario): boolean {
  return scenario.steps.some((step) => isWatch(scenario, step));
}

export async function runScenarios(scenarios: readonly Scenario[], env: RunEnv, concurrency: number, hooks: RunnerHooks): Promise<Map<string, ScenarioRun>> {
  const runs = new Map<string, ScenarioRun>();
  for (const note of [sandboxOff(env.browser), memoryUnwatched(env.browser)]) if (note) env.facts.noteLimit(note);
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
  // Only watchers already started are waited for: with fewer workers than watchers, one may be queued.
  const watchersStarted: Array<Promise<void>> = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      let watches: (() => void) | undefined;
      if (isWatcher(next)) watchersStarted.push(new Promise<void>((resolve) => (watches = resolve)));
      const run = runs.get(next.id)!;
      // The first watcher of the queue, the longest, leads: it starts at once, the other watchers once it watches.
      run.leads = watches !== undefined && watchersStarted.length === 1;
      if (run.leads) env.capturer.leadUntil(watchersStarted[0]!);
      if (!watches) await Promise.all(watchersStarted);
      else if (!run.leads) await watchersStarted[0];
      if (!pastBound(env)) await runOne(run, env, hooks, watches);
      else {
        skipScenarios([next], runBoundReason(env, 'before it started'), env, hooks);
        watches?.();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
  for (const scenario of alone.filter((candidate) => runs.has(candidate.id))) {
    if (pastBound(env)) skipScenarios([scenario], runBoundReason(env, 'before it started'), env, hooks);
    else await runOne(runs.get(scenario.id)!, env, hooks);
  }
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

/** `watches` is told when the scenario's first long wait begins, or when it ends without one. */
async function runOne(run: ScenarioRun, env: RunEnv, hooks: RunnerHooks, watches?: () => void): Promise<void> {
  const { scenario } = run;
  hooks.onScenarioBegin?.(scenario);
  const started = performance.now();
  let error: string | undefined;
  try {
    await playSteps(run, watches);
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  } finally {
    watches?.();
    await run.close();
  }
  const outcome: ScenarioOutcome = {
    id: scenario.id, title: scenario.title, status: error ? 'errored' : 'passed', durationMs: Math.round(performance.now() - started), ...(error ? { error } : {}),
  };
  env.facts.outcomes.set(scenario.id, outcome);
  hooks.onScenarioEnd?.(outcome);
}

/**
 * The scenario's steps in order; the first that throws ends it, named by its number. Each step is
 * bounded (its own bound, and what is left of the run's): one that hits its bound ends the scenario
 * with the bound and what its pages were doing. `watches` is told when a long wait begins.
 */
async function playSteps(run: ScenarioRun, watches?: () => void): Promise<void> {
  for (const [index, step] of run.scenario.steps.entries()) {
    if (isWatch(run.scenario, step)) watches?.();
    const name = `step ${index + 1} (${step.do}${'journey' in step && step.journey !== 'main' ? ` ${step.journey}` : ''})`;
    if (pastBound(run.env)) throw new Error(`${name}: ${runBoundReason(run.env, 'before this step')}`);
    const own = stepBoundSeconds(run.scenario, step) * 1000;
    const left = run.env.deadline === undefined ? Infinity : run.env.deadline - Date.now();
    const played = (STEPS[step.do] as (run: ScenarioRun, step: Step) => Promise<void>)(run, step);
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<'bound'>((resolve) => (timer = setTimeout(() => resolve('bound'), Math.min(own, left))));
    try {
      if ((await Promise.race([played, bound])) === 'bound') {
        // The step goes on in the background until its browsers close: its end is no longer heard.
        played.catch(() => undefined);
        const which = own <= left ? `its bound of ${Math.round(own / 1000)} s` : runBoundReason(run.env, 'during it');
        throw new BoundHit(`${name} did not end within ${which}; ${await run.doing()}`);
      }
    } catch (error) {
      if (error instanceof BoundHit) throw error;
      const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      // A browser call that ran out of its own time says what the page was doing then.
      throw new Error(`${name}: ${message}${/Timeout \d+ms exceeded/.test(message) ? `; ${await run.doing()}` : ''}`);
    } finally {
      clearTimeout(timer);
    }
  }
}

class BoundHit extends Error {}

const pastBound = (env: RunEnv) => env.deadline !== undefined && Date.now() >= env.deadline;

function runBoundReason(env: RunEnv, when: string): string {
  return `the run reached its bound of ${env.maxSeconds ?? '?'} s (--max-seconds) ${when}`;
}

export function skipScenarios(scenarios: readonly Scenario[], reason: string, env: RunEnv, hooks: RunnerHooks): void {
  for (const scenario of scenarios) {
    const outcome: ScenarioOutcome = { id: scenario.id, title: scenario.title, status: 'skipped', durationMs: 0, error: reason };
    env.facts.outcomes.set(scenario.id, outcome);
    hooks.onScenarioEnd?.(outcome);
  }
}
