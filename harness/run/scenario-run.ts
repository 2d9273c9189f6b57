/**
 * One scenario being run: its journeys (each its own pack, collector and browser context), the
 * probes' fresh browsers, and the steps in order. Steps are in steps.ts; this holds what they share.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { BrowserSession } from './browser-session.js';
import type { Config } from '../config.js';
import type { EmulatorClient, ObservedCall } from '../emulator-client/client.js';
import type { PackPool } from '../emulator-client/packs.js';
import { AgencyPage } from '../pages/agency.js';
import { recognisedSelectors } from '../pages/markers.js';
import { personOf } from '../pages/person.js';
import { untilSettled } from '../pages/settle.js';
import { vocabularyOf } from '../vocabulary.js';
import type { Scenario } from '../scenarios/schema.js';
import type { Capturer } from './capture.js';
import type { JourneyFacts, RunFacts } from './facts.js';
import type { PageSeen } from '../browser/seen.js';

export interface RunEnv {
  browser: Browser;
  facts: RunFacts;
  client: EmulatorClient;
  config: Config;
  packs: PackPool;
  capturer: Capturer;
  /** Where this run began on the emulator: the last observed call and the last session issued before it. */
  baseline: { calls: number; session: number };
  /** When the run must end (epoch ms), and its bound in seconds (`--max-seconds`): every step ends by then. */
  deadline?: number;
  maxSeconds?: number;
}

export class ScenarioRun {
  private readonly sessions = new Map<string, BrowserSession>();
  private readonly extras: BrowserSession[] = [];
  /** Trace files written for this scenario's browsers. */
  readonly traces: string[] = [];
  /** Set by the runner on the run's lead, whose watch ends the run: the other scenarios' captures wait until it watches. */
  leads = false;

  constructor(
    readonly scenario: Scenario,
    readonly env: RunEnv,
  ) {}

  get facts(): RunFacts {
    return this.env.facts;
  }

  /** Each journey gets its pack and collector before any step runs; NoPackKind when the promotion draws none it may have. */
  async prepare(): Promise<void> {
    const journeys = Object.entries(this.scenario.world.journeys);
    const packs = [];
    for (const [, world] of journeys) packs.push(await this.env.packs.take(world.pack));
    for (const [index, [journey, world]] of journeys.entries()) {
      // One collector per country for the harness: entries are per pack, so journeys may share one.
      const { email } = personOf(this.facts.runId, world.country);
      this.facts.journeys.push({ scenario: this.scenario.id, journey, pack: packs[index]!, country: world.country, email, consent: [], submissions: [] });
    }
  }

  journey(name: string): JourneyFacts {
    const found = this.facts.journey(this.scenario.id, name);
    if (!found) throw new Error(`journey "${name}" has no pack`);
    return found;
  }

  /**
   * The journey's browser, opened on first use; its timers on Playwright's clock when a step runs
   * them ahead (a watch for polling that stops). A schedule's watch keeps the browser's own timers:
   * on Playwright's clock a timer set when an answer arrives fires early by the answer's latency,
   * and an agency that times its polls on its server then polls a second late (README, "Virtual time").
   */
  async session(name: string): Promise<BrowserSession> {
    let session = this.sessions.get(name);
    if (!session) {
      const clock = this.scenario.steps.some((step) => step.do === 'watch_polling' && step.mode === 'stops' && step.journey === name);
      session = await this.open(name, clock);
      this.sessions.set(name, session);
    }
    return session;
  }

  /** What the page of a browser shows, through the config's markers. */
  view(session: BrowserSession): AgencyPage {
    return new AgencyPage(session.page, this.env.config.markers, this.facts.states, vocabularyOf(this.env.config.vocabulary), this.facts.probeMark);
  }

  /** The experience calls the emulator observed in this run (of a pack, when given), in order; the clock offset follows. */
  async observed(pack?: string): Promise<ObservedCall[]> {
    const sent = Date.now();
    const { now, data } = await this.env.client.observed(this.env.baseline.calls, pack === undefined ? {} : { pack });
    this.facts.noteClock(now, sent, Date.now());
    this.facts.states.data.note(data);
    return data;
  }

  /** Another browser with no cookies: the place an attacker or a second device opens a link. */
  async fresh(label: string): Promise<BrowserSession> {
    const session = await this.open(label, false);
    this.extras.push(session);
    return session;
  }

  /** A browser for the journey `label` (or one of its probes, `main-other_browser`), in its country. */
  private open(label: string, clock: boolean): Promise<BrowserSession> {
    const journeys = Object.entries(this.scenario.world.journeys);
    const country = (journeys.find(([name]) => label === name || label.startsWith(`${name}-`)) ?? journeys[0])?.[1].country;
    return BrowserSession.open(this.env.browser, this.facts, this.scenario.id, label, { trace: this.env.config.trace, clock, recorded: recognisedSelectors(this.env.config.markers), country });
  }

  /** After a step, once the page settled (or at the bound): what the page shows, its storage, and the state's axe run and screenshots. */
  async observe(session: BrowserSession): Promise<PageSeen | undefined> {
    const loading = await untilSettled(session);
    const seen = await session.snapshot(this.view(session), this.scenario.phase === 'sandbox' ? 'sandbox' : 'production');
    if (seen && loading) seen.loading = loading;
    if (seen) await this.env.capturer.capture(session, seen, this.leads);
    return seen;
  }

  /** What this scenario's pages are doing now, for a step that hit its bound. */
  async doing(): Promise<string> {
    const all = [...this.sessions.values(), ...this.extras];
    if (all.length === 0) return 'no page was open';
    return (await Promise.all(all.map(async (session) => `${session.journey}: ${await session.doing()}`))).join('; ');
  }

  async close(): Promise<void> {
    const folder = join(this.facts.outDir, 'traces', '.pending');
    const all = [...this.sessions.entries(), ...this.extras.map((session, index) => [`${session.journey}-${index}`, session] as const)];
    if (this.env.config.trace !== 'off') mkdirSync(folder, { recursive: true });
    await Promise.all(
      all.map(async ([name, session]) => {
        const path = this.env.config.trace === 'off' ? undefined : join(folder, `${this.scenario.id}--${name}.zip`);
        await session.close(path);
        if (path) this.traces.push(path);
      }),
    );
  }
}
