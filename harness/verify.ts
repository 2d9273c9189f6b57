/**
 * `harness verify` as a function (the CLI, the tests, the demo and the bench call it):
 *
 * 1. preflight (which finds the promotion to verify); register the callback URLs with its console;
 * 2. the sandbox scenarios through the agency's preview when the checklist needs them, and approval
 *    as soon as the brand's checklist is complete (the previews' screenshots may still be running);
 * 3. every other selected scenario, side by side in their own browser contexts;
 * 4. the emulator's side (observed calls, issued secrets) and the agency's log, the checks, the reports.
 *
 * At the end, whatever happens, the emulator is put back as the run found it (run/brand-state.ts). Throws HarnessError when the
 * run could not happen at all; otherwise resolves with the report, failed checks included.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { type InstallPolicy, launchChromium } from './browser/chromium.js';
import { machineOf, tellsOf } from './browser/tells.js';
import { allowancesOf } from './checks/allowances.js';
import { evaluateChecks } from './checks/evaluate.js';
import { CHECKS, CHECK_IDS } from './checks/registry.js';
import { STATUSES, type Status } from './checks/types.js';
import { type Config, DEFAULT_OUT } from './config.js';
import type { EmulatorClient } from './emulator-client/client.js';
import { PackPool } from './emulator-client/packs.js';
import { HarnessError, Interrupted } from './errors.js';
import { harnessVersion, shownPath } from './paths.js';
import { preflight } from './preflight.js';
import { keepEvidence } from './report/evidence-files.js';
import { type ReportFolder, claimReportFolder } from './report/folder.js';
import { type Format, REPORTERS, multiplex } from './report/registry.js';
import type { Report, Reporter, RunMeta } from './report/types.js';
import { readAgencyLog } from './run/agency-log.js';
import { type OpenedRun, openRun } from './run/brand-state.js';
import { Capturer } from './run/capture.js';
import { RunFacts } from './run/facts.js';
import { defaultRunSeconds, runScenarios, skipScenarios } from './run/runner.js';
import type { RunEnv, ScenarioRun } from './run/scenario-run.js';
import { BUILT_IN_SCENARIOS, loadScenarios } from './scenarios/load.js';
import type { Scenario } from './scenarios/schema.js';
import { NO_CALLBACK, type TargetOptions, resolveTarget } from './target.js';

export interface VerifyOptions extends TargetOptions {
  only?: string[];
  /** Report files to write besides the terminal's text (`text` is always on). */
  formats?: Format[];
  out?: string;
  /** More scenario folders (besides the built-in ones and the config's). */
  scenarios?: string[];
  /** A running browser to use (tests share one); otherwise Chromium is found and launched. */
  browser?: Browser;
  install?: InstallPolicy;
  /** Replaces the reporters named by `formats` (tests). */
  reporters?: Array<[string, Reporter]>;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  color?: boolean;
  /** Aborted: the run stops (the CLI on SIGINT or SIGTERM): no more progress, the emulator's state restored, no report; verify rejects with Interrupted. */
  signal?: AbortSignal;
  /** The run's upper bound in seconds (`--max-seconds`); default: fits its scenarios' own schedule (run/runner.ts). */
  maxSeconds?: number;
  /** Given the run's facts and the scenarios it ran, before they are judged (tests record them: test/harness/recorded.ts). */
  onFacts?: (facts: RunFacts, scenarios: readonly Scenario[]) => void;
}

export async function verify(options: VerifyOptions): Promise<Report> {
  const stderr = options.stderr ?? process.stderr;
  const folder = claimReportFolder(resolve(options.out ?? DEFAULT_OUT));
  if (folder.cleaned) stderr.write(`[harness] ${folder.cleaned}\n`);
  try {
    const report = await runStaged(options, folder);
    folder.publish();
    return report;
  } catch (error) {
    if (folder.discard()) stderr.write(`[harness] the earlier report in ${shownPath(folder.final)}/ was removed: this run has no verdict\n`);
    throw error;
  }
}


/** The run itself, its reports written to the staged folder (report/folder.ts), each path in them naming the report folder. */
async function runStaged(options: VerifyOptions, folder: ReportFolder): Promise<Report> {
  const started = Date.now();
  const { config, callback, preview, promotion, client } = resolveTarget(options);
  if (!callback) throw new HarnessError(NO_CALLBACK);
  const only = options.only?.length ? options.only : undefined;
  const unknown = only?.filter((id) => !CHECK_IDS.has(id)) ?? [];
  if (unknown.length) throw new HarnessError(`--only names unknown check ${unknown.join(', ')}; \`harness checks\` lists them`);
  const loaded = loadScenarios([BUILT_IN_SCENARIOS, ...config.scenarios, ...(options.scenarios ?? [])], CHECK_IDS, config.disable_scenarios);
  const { scenarios } = loaded;
  const selectedChecks = new Set(only ?? CHECK_IDS);
  const selected = scenarios.filter((scenario) => scenario.feeds.some((id) => selectedChecks.has(id)));

  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const { signal } = options;
  const ready = await unlessInterrupted(signal, preflight({ client, callback, preview, promotion, install: options.install ?? 'never', browserGiven: Boolean(options.browser), progress: (line) => stderr.write(`${line}\n`) }));

  const outDir = folder.staging;
  const color = options.color ?? false;
  // The terminal's text last: it names the files the others wrote.
  const formats = new Set<Format>([...(options.formats ?? []).filter((format) => format !== 'text'), 'text']);
  const reporters = options.reporters ?? [...formats].map((format) => [format, REPORTERS[format]({ outDir, stdout, stderr, color })] as [string, Reporter]);
  const report = multiplex(reporters, stderr, signal);
  const facts = new RunFacts(config, { agency: new URL(callback).origin, emulator: client.origin, callback, ...(preview ? { preview } : {}) }, outDir);
  const meta: RunMeta = {
    harness_version: harnessVersion(), started_at: new Date(started).toISOString(), emulator: client.origin, callback, preview: preview ?? null,
    promotion: { id: ready.promotion.id, slug: ready.promotion.slug, name: ready.promotion.name, mechanic: ready.promotion.mechanic },
    only: only ?? null, out_dir: folder.final, notes: [...ready.notes, ...loaded.notes],
    allowances: allowancesOf(config, CHECKS.filter((check) => selectedChecks.has(check.id))),
    max_seconds: options.maxSeconds ?? defaultRunSeconds(scenarios.filter((scenario) => scenario.phase === 'sandbox' || selected.includes(scenario)), config.concurrency),
  };

  const browser = options.browser ?? (await unlessInterrupted(signal, launchChromium({ install: options.install ?? 'never', log: (line) => stderr.write(`${line}\n`) })));
  const machine = machineOf(browser);
  const runs = new Map<string, ScenarioRun>();
  let opened: OpenedRun | undefined;
  let changedConsole = false;
  const work = (async () => {
    opened = await openRun(client);
    if (opened.recovered) meta.notes.push(opened.recovered);
    const env = await prepareEnv(browser, facts, client, config, selectedChecks, `${ready.promotion.slug} (${ready.promotion.mechanic})`);
    env.maxSeconds = meta.max_seconds;
    env.deadline = started + env.maxSeconds * 1000;
    const callbacks = await client.setCallbacks({ production: callback, ...(preview ? { preview } : {}) });
    const needsApproval = callbacks.changed || !(await client.overview()).experience.approved_at;
    changedConsole = needsApproval;
    const sandbox = scenarios.filter((scenario) => scenario.phase === 'sandbox' && (needsApproval || selected.includes(scenario)));
    const production = selected.filter((scenario) => scenario.phase !== 'sandbox');
    report.onBegin(meta, [...sandbox, ...production], selectedChecks.size);
    let previews: Promise<Map<string, ScenarioRun>> = Promise.resolve(new Map());
    if (preview) previews = runScenarios(sandbox, env, config.concurrency, report);
    else skipScenarios(sandbox, 'no preview URL: pass --preview so the six sandbox scenarios can run through the agency', env, report);
    let journeys: Promise<Map<string, ScenarioRun>> = Promise.resolve(new Map());
    if (production.length > 0) {
      if (needsApproval) await checklistComplete(client, previews);
      const route = await productionRoute(client, needsApproval);
      if (route.blocked) skipScenarios(production, route.blocked, env, report);
      else journeys = runScenarios(production, env, config.concurrency, report);
    }
    for (const done of await Promise.all([previews, journeys])) for (const [id, run] of done) runs.set(id, run);
    await collect(facts, client, env);
  })();
  try {
    await unlessInterrupted(signal, work);
  } finally {
    if (!options.browser) await browser.close().catch(() => undefined);
    // Interrupted, the run's own calls may still be on their way: the restore comes after them.
    if (signal?.aborted) await Promise.race([work.catch(() => undefined), sleep(SETTLE_MS)]);
    if (opened) {
      const { restored, note } = await opened.restore();
      if (changedConsole || !restored) meta.notes.push(note);
      // The reports are muted once interrupted: the terminal still hears what became of the emulator.
      if (signal?.aborted) stderr.write(`[harness] ${note}\n`);
    }
  }

  options.onFacts?.(facts, selected);
  const checks = evaluateChecks(facts, CHECKS.filter((check) => selectedChecks.has(check.id)), selected);
  keepEvidence(checks, selected, runs, folder);
  const summary = Object.fromEntries(STATUSES.map((status) => [status, checks.filter((check) => check.status === status).length])) as Record<Status, number>;
  const finished = Date.now();
  const result: Report = {
    run: { ...meta, notes: [...meta.notes, ...facts.notes], finished_at: new Date(finished).toISOString(), duration_ms: finished - started, chromium: ready.chromium, tells: tellsOf(await machine, { scanned: [...facts.captures.values()].some((capture) => capture.axe !== undefined) }) },
    summary, checks, scenarios: [...facts.outcomes.values()],
  };
  await report.onEnd(result);
  return result;
}

/** Until the brand's checklist records the six sandbox calls, or the previews are over (approval then says what is missing). */
async function checklistComplete(client: EmulatorClient, previews: Promise<unknown>): Promise<void> {
  let over = false;
  void previews.finally(() => (over = true));
  while (!over && !(await client.checklist()).complete) await Promise.race([previews, sleep(200)]);
}

/** Approval when needed (put back as the brand had it at the run's end), and why scans would not reach the agency (`blocked`), if they will not. */
async function productionRoute(client: EmulatorClient, needsApproval: boolean): Promise<{ blocked?: string }> {
  if (needsApproval) {
    const approval = await client.approve();
    if (!approval.ok) return { blocked: `the brand could not approve the integration (${approval.message}), so no scan reaches the agency` };
  }
  const { routing } = (await client.overview()).experience;
  const blocked = routing.to === 'agency' ? undefined : `scans go to the service's hosted page, not to the agency (${(routing.reasons ?? []).join(', ').replaceAll('_', ' ')})`;
  return blocked ? { blocked } : {};
}

/** The work, or Interrupted as soon as the signal aborts (the work is left to end on its own). */
function unlessInterrupted<T>(signal: AbortSignal | undefined, work: Promise<T>): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new Interrupted('interrupted'));
    if (signal.aborted) stop();
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/** How long an interrupted run's calls under way may take to end before the emulator is restored. */
const SETTLE_MS = 5_000;

async function prepareEnv(browser: Browser, facts: RunFacts, client: EmulatorClient, config: Config, selected: ReadonlySet<string>, promotion: string): Promise<RunEnv> {
  const sent = Date.now();
  const observed = await client.observed(0, { limit: 1 });
  facts.noteClock(observed.now, sent, Date.now());
  const [env, terms, secrets, overview] = await Promise.all([client.env(), client.terms(), client.secrets(), client.overview()]);
  facts.terms = terms;
  facts.campaignName = overview.promotion.name;
  const packs = new PackPool(client, env, promotion);
  await packs.load();
  return {
    browser, facts, client, config, packs,
    capturer: new Capturer(facts, { axe: selected.has('a11y.axe'), screenshots: selected.has('review.screenshots') }),
    baseline: { calls: observed.last, session: secrets.counters.session ?? 0 },
  };
}

/** The emulator's side of the run (every experience call since it began, the secrets it issued), and the agency's log. */
async function collect(facts: RunFacts, client: EmulatorClient, env: RunEnv): Promise<void> {
  for (let after = env.baseline.calls; ; ) {
    const page = await client.observed(after);
    facts.calls.push(...page.data);
    if (page.data.length === 0 || page.last <= (page.data.at(-1)?.seq ?? after)) break;
    after = page.data.at(-1)!.seq;
  }
  facts.secrets = await client.secrets(env.baseline.session);
  facts.checklist = await client.checklist();
  if (facts.config.agency_log) facts.agencyLog = readAgencyLog(facts.config.agency_log);
}
