/**
 * What a run saw, as typed records: the browser's side (harness/browser/seen.ts: pages,
 * responses, requests, the consent form), each journey's protocol values, the probes, and at the
 * end the emulator's side (observed experience calls, issued secrets). Steps write facts; checks
 * only read them.
 */
import { createHash } from 'node:crypto';
import type { Config } from '../config.js';
import type { Checklist, ObservedCall, Pack, Secrets } from '../emulator-client/client.js';
import type { ServiceAnswer, Shown, StateName } from '../journey-states.js';
import { StateBook } from '../pages/states.js';
import type { AgencyLog } from './agency-log.js';
import { drawProbeMark, drawTermsValues } from './drawn.js';
import type { EndpointProbe } from './endpoint-probe-facts.js';
import type { TermsByCountry, TermsEdit } from './terms.js';
import type { AgencyResponse, ConsentView, Environment, PageSeen, RequestSeen, Submission } from '../browser/seen.js';

export interface JourneyFacts {
  scenario: string;
  journey: string;
  pack: Pack;
  country: string;
  /** The e-mail address the journey's person types into the agency's form (person.ts). */
  email: string;
  /** The query of the agency's redirect to authorize_url. */
  authorize?: { url: string; state?: string; challenge?: string; method?: string };
  suppliedState?: string;
  /** The callback URL with service_code and state, as the service issued it. */
  issuedCallback?: string;
  serviceRequest?: string;
  /** The callback opened as issued: its response, and where the browser ended. */
  completion?: { at: number; status: number; location: string | undefined; landed: string };
  /**
   * When the journey's own browser began opening the callback as issued, noted before it does: a
   * run cut short by its bound while it opened (no completion) still knows the exchange it set off
   * as the journey's own, never as a probe's.
   */
  openedAt?: number;
  consent: ConsentView[];
  submissions: Submission[];
  /** When a step last changed the journey's world (a fault armed, a delivery settled): watches run from then. */
  changedAt?: number;
  /** What the harness did that ends polling, by the emulator's own record (a delivery settled, the session read made to answer 401), and when. */
  pollingEnded?: { at: number; by: string };
}

export type ProbeKind = 'tampered_state' | 'other_browser' | 'unsolicited' | 'replay';

export interface Probe {
  kind: ProbeKind;
  /** How the callback was changed, e.g. "truncated" for a tampered state. */
  variant: string;
  scenario: string;
  journey: string;
  at: number;
  /** The first callback opened on the journey's transaction: nothing before it could have consumed the transaction. */
  fresh: boolean;
  /** SHA-256 of the service_code the probe carried. */
  codeSha: string;
  url: string;
  page: { status: number | undefined; url: string; shows: Shown[]; title: string };
}

export interface PollWatch {
  scenario: string;
  journey: string;
  pack: string;
  mode: 'schedule' | 'stops';
  /** Wall-clock window watched, in the emulator's observed times. */
  from: number;
  until: number;
  /** `stops`: the page when the watch ended, after its timers ran `virtualMs` more in virtual time. */
  finalPage?: PageSeen;
  virtualMs?: number;
  /** `stops`: when the watch step ended, its virtual minutes and the page they end on included (the emulator's clock). */
  ended?: number;
}

export interface Capture {
  key: string;
  scenario: string;
  url: string;
  axe?: Array<{ id: string; impact: string | null; help: string; nodes: number }>;
  /** Why axe-core could not analyse the state (the page went away mid-analysis), while it has not. */
  axeError?: string;
  screenshots: { mobile?: string; desktop?: string };
}

/** An `expect` step or a preview scenario: what the page should show, and what it showed. */
export interface Expectation {
  scenario: string;
  journey: string;
  environment: Environment;
  /** A page kind, or `result` with a state. */
  wanted: 'landing' | 'consent_form' | 'result' | 'error';
  state?: StateName;
  met: boolean;
  /** The page when the wait ended. */
  page: PageSeen | undefined;
  /** The service's last answer to the journey's entry (or the preview scenario's) when the wait ended. */
  answer?: ServiceAnswer;
  /** How the page was recognised as showing the state: its marker, the signature learned from the preview, or inferred. */
  how?: string;
}

export interface ArmedFault {
  scenario: string;
  journey: string;
  pack: string;
  on: 'exchange' | 'entry' | 'session_read';
  at: number;
  status?: number;
  error?: string;
  retryAfter?: number;
  drop?: boolean;
}

export interface ScenarioOutcome {
  id: string;
  title: string;
  status: 'passed' | 'errored' | 'skipped';
  durationMs: number;
  error?: string;
}

export class RunFacts {
  readonly runId: string;
  /** The attribute the terms' markup probe carries (`harness-probe` in a scenario's terms becomes its letters): drawn per run, so no page can match it. */
  readonly probeMark: string;
  /**
   * What `{version}` and `{label}` become in a scenario's terms: a terms version and a link label
   * drawn per run, so no page can match on them; the version mixes cases, so a page that changes
   * its case is seen.
   */
  readonly termsDraw: { version: string; label: string };
  readonly journeys: JourneyFacts[] = [];
  readonly pages: PageSeen[] = [];
  readonly responses: AgencyResponse[] = [];
  readonly requests: RequestSeen[] = [];
  readonly bodies: Array<{ scenario: string; url: string; text: string }> = [];
  readonly console: Array<{ scenario: string; text: string }> = [];
  readonly storage: Array<{ scenario: string; url: string; text: string }> = [];
  readonly probes: Probe[] = [];
  readonly polls: PollWatch[] = [];
  readonly endpoint: EndpointProbe[] = [];
  readonly expectations: Expectation[] = [];
  readonly termsEdits: TermsEdit[] = [];
  readonly faults: ArmedFault[] = [];
  readonly captures = new Map<string, Capture>();
  /** The result states learned from the preview's pages. */
  readonly states = new StateBook();
  /** Sandbox scenarios opened through the preview. */
  readonly previewed: string[] = [];
  readonly outcomes = new Map<string, ScenarioOutcome>();
  /** Limits the run hit (a page's console, its memory) and what the harness's browser ran without: said in the report's notes. */
  readonly notes: string[] = [];
  private campaign: string | undefined;
  /** Terms per country ("" for the default) before the run changed any. */
  terms: TermsByCountry | undefined;
  /** Set at the end of the run. */
  calls: ObservedCall[] = [];
  secrets: Secrets = { counters: {}, keys: [], session_tokens: [] };
  checklist: Checklist | undefined;
  /** The agency's log (config.agency_log) as the run read it at its end; undefined when it was not read. */
  agencyLog: AgencyLog | undefined;
  /** Why axe-core could not run at all (not installed). */
  axeProblem: string | undefined;
  /** The emulator's wall clock minus the harness's, in ms: compares the browser's times with the service's. */
  clockOffset = 0;
  /** The round trip of the reading `clockOffset` comes from: the shortest so far, so the most exact. */
  private clockRoundTrip = Number.POSITIVE_INFINITY;

  constructor(
    readonly config: Config,
    readonly origins: { agency: string; emulator: string; callback: string; preview?: string },
    readonly outDir: string,
  ) {
    this.runId = Date.now().toString(36).slice(-5) + Math.random().toString(36).slice(2, 5);
    this.probeMark = drawProbeMark();
    this.termsDraw = drawTermsValues();
    this.agencyOrigins = new Set([origins.agency, ...(origins.preview ? [originOf(origins.preview) ?? origins.agency] : [])]);
  }

  /**
   * Every origin the agency's journey runs on: the callback's, the preview's, and each one the
   * callback redirects the browser to but the service's (pages on one origin, API and callback on
   * another are one agency). Grows during the run (`noteRedirect`).
   */
  private readonly agencyOrigins: Set<string>;

  /** The campaign's name, as the brand's console shows it: a landing page names it. It is the service's data, which no page is read with. */
  get campaignName(): string | undefined {
    return this.campaign;
  }

  set campaignName(name: string | undefined) {
    this.campaign = name;
    this.states.data.name(name);
  }

  /** Whether a URL is on one of the agency's origins. */
  isAgency(url: string): boolean {
    return this.agencyOrigins.has(originOf(url) ?? '');
  }

  /** The agency's origins so far. */
  agencyOriginList(): string[] {
    return [...this.agencyOrigins];
  }

  /** The browser followed a redirect from `from` to `to`: when the callback answered it, `to`'s origin is the agency's too (unless it is the service's). */
  noteRedirect(from: string, to: string): void {
    const origin = originOf(to);
    if (origin && origin !== this.origins.emulator && /^https?:/.test(to) && this.isCallback(from)) this.agencyOrigins.add(origin);
  }

  /** Whether a URL is on one of the agency's hosts, by any port or scheme (http, ws): another door a page may ask the agency by. */
  isAgencyHost(url: string): boolean {
    try {
      const host = new URL(url).hostname;
      return [...this.agencyOrigins].some((origin) => new URL(origin).hostname === host);
    } catch {
      return false;
    }
  }

  /** Whether a URL is the callback URL (any query). */
  isCallback(url: string): boolean {
    try {
      const parsed = new URL(url);
      const callback = new URL(this.origins.callback);
      return parsed.origin === callback.origin && parsed.pathname === callback.pathname;
    } catch {
      return false;
    }
  }

  journey(scenario: string, journey: string): JourneyFacts | undefined {
    return this.journeys.find((candidate) => candidate.scenario === scenario && candidate.journey === journey);
  }

  /** Experience calls of a pack, in order. */
  callsOf(pack: string): ObservedCall[] {
    return this.calls.filter((call) => call.pack === pack);
  }

  /** The emulator said its clock read `emulatorNow` during a call sent at `sent` and answered at `received` (harness clock). */
  noteClock(emulatorNow: number, sent: number, received: number): void {
    if (received - sent >= this.clockRoundTrip) return;
    this.clockRoundTrip = received - sent;
    this.clockOffset = emulatorNow - (sent + received) / 2;
  }

  /** A limit the run hit, said once in the report's notes. */
  noteLimit(note: string): void {
    if (!this.notes.includes(note)) this.notes.push(note);
  }

  /** A time of the harness's clock on the emulator's (the clock of the observed calls). */
  onEmulatorClock(at: number): number {
    return at + this.clockOffset;
  }
}

/** Hex SHA-256, the form in which the emulator names an authorization code. */
export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    // A WebSocket belongs to the site of its http(s) origin.
    if (parsed.protocol === 'ws:' || parsed.protocol === 'wss:') parsed.protocol = parsed.protocol === 'ws:' ? 'http:' : 'https:';
    return parsed.origin;
  } catch {
    return undefined;
  }
}

/** A URL with its query values shown as "…", for messages and evidence that must not repeat a secret. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    for (const name of [...parsed.searchParams.keys()]) parsed.searchParams.set(name, '…');
    return decodeURI(parsed.href);
  } catch {
    return url;
  }
}
