/**
 * One browser context of a scenario (one collector's browser, or a probe's fresh one) and what it
 * records: every request, every response from the agency's origin with its headers, cookies and
 * text, the console, and after each step what the page shows, its links, DOM and storage. It
 * never waits for a navigation: after an action it waits until the requests the action set off
 * have finished and the page has loaded, which holds for a form post and a `fetch` alike.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, BrowserContext, ConsoleMessage, Page, Request, Response } from 'playwright-core';
import type { TraceMode } from '../config.js';
import type { AgencyPage } from '../pages/agency.js';
import { type RunFacts, originOf, redactUrl } from './facts.js';
import type { Environment, PageSeen, RequestSeen } from '../browser/seen.js';
import { type Heard, recordOutsideWorkers, recordSockets } from '../browser/channels.js';
import { RENDERER_LIMIT_MB } from '../browser/chromium.js';
import { ordinaryDevice, phoneContext, phoneOf, presentAsPhone } from '../browser/device.js';
import { type ShownMark, readPage, recordShown, shownMark } from '../browser/in-page.js';
import { onEveryDocument, outside } from '../browser/outside.js';
import { within } from '../browser/within.js';


const MAX_BODY = 500_000;
/** Requests and WebSocket frames kept per browser context: a page that sends without end is told, not kept. */
export const MAX_REQUESTS = 20_000;
const TEXT_TYPES = /html|json|javascript|ecmascript|text\//i;
/** Requests an action waits for; a stream (event source, web socket) never finishes, so it is not one. */
const AWAITED = new Set(['document', 'fetch', 'xhr']);
/** After the last of them: quiet this long means the page is done with the action. */
const QUIET_MS = 250;
/** Console messages kept per context, and characters per message: a page that floods its console is told, not kept; at `ended` it is ended. */
export const CONSOLE_LIMIT = { messages: 500, chars: 2000, ended: 2000 };
/** How long the harness's own request to the emulator may take (toEmulator). */
const EMULATOR_MS = 20_000;
/** How long closing a page may take: a page that hangs its renderer, or a body that never ends, is left behind. */
const CLOSE_MS = 10_000;
/** How long a page's main thread may take to answer before it counts as busy. */
const ANSWER_MS = 1500;

/** A string of its own: a slice of a huge string would keep the whole of it. */
function copyOf(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/**
 * Lets go of everything Playwright keeps of a long console message once it is read: each argument's
 * handle, and the page's last 200 messages, all whole. Chromium sends a message's arguments whole,
 * so a huge one still passes through; it is not kept.
 */
function forget(message: ConsoleMessage): void {
  for (const arg of message.args()) void arg.dispose().catch(() => undefined);
  void message.page()?.clearConsoleMessages().catch(() => undefined);
}

export class BrowserSession {
  private readonly pending = new Set<Promise<void>>();
  private readonly inFlight = new Set<Request>();
  private readonly seen = new WeakMap<Request, RequestSeen>();
  private lastActivity = 0;
  /** Requests and frames heard so far (heard). */
  private requests = 0;
  /** Stops hearing the context's shared and service workers (recordOutsideWorkers). */
  private stopWorkers: () => void = () => undefined;
  /** Names of the cookies the emulator set in this browser: the only ones the harness's own calls to it carry (toEmulator). */
  private readonly emulatorCookies = new Set<string>();
  /** Status of the last main-frame document. */
  lastStatus: number | undefined;
  /** Where the page's record of what it shows stood when the last action began. */
  lastMark: ShownMark = { document: 0, at: 0 };

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    private readonly facts: RunFacts,
    readonly scenario: string,
    readonly journey: string,
    readonly tracing: boolean,
  ) {}

  /**
   * `trace`: the config's; a trace holds the actions, network and console, and the DOM at each
   * action only with `on-failure-with-snapshots` (that costs a verify a tenth of its CPU). `clock`: the pages'
   * timers run on Playwright's clock, which a step can run ahead in virtual time. `recorded`: the
   * selectors every page records its changes of (`recordShown`). `country`: the journey's, whose
   * language and time zone the phone has (device.ts).
   */
  static async open(browser: Browser, facts: RunFacts, scenario: string, journey: string, options: { trace: TraceMode; clock?: boolean; recorded: string[]; timeoutMs?: number; country?: string }): Promise<BrowserSession> {
    const phone = phoneOf(browser.version(), options.country);
    const context = await browser.newContext(phoneContext(browser.version(), options.country));
    context.on('page', (opened) => void presentAsPhone(opened, phone).catch(() => undefined));
    // A cap, not a wait: a loaded machine can take seconds for one click.
    context.setDefaultTimeout(options.timeoutMs ?? 20_000);
    const tracing = options.trace !== 'off';
    if (tracing) await context.tracing.start({ snapshots: options.trace === 'on-failure-with-snapshots', screenshots: false });
    if (options.clock) await context.clock.install();
    await context.addInitScript(ordinaryDevice);
    const page = await context.newPage();
    await Promise.all([presentAsPhone(page, phone), onEveryDocument(page, recordShown, options.recorded)]);
    const session = new BrowserSession(context, page, facts, scenario, journey, tracing);
    session.record();
    session.stopWorkers = await recordOutsideWorkers(browser, page, (seen) => session.heard(seen));
    return session;
  }

  /** A request of the context, kept up to MAX_REQUESTS; undefined past them. */
  private heard(seen: Heard & { referer?: string }): RequestSeen | undefined {
    this.requests += 1;
    if (this.requests > MAX_REQUESTS) {
      if (this.requests === MAX_REQUESTS + 1) this.facts.noteLimit(`${this.scenario} (${this.journey}): the pages sent more than ${MAX_REQUESTS} requests and WebSocket frames; only the first ${MAX_REQUESTS} were kept`);
      return undefined;
    }
    const kept: RequestSeen = { scenario: this.scenario, journey: this.journey, at: Date.now(), referer: undefined, ...seen };
    this.facts.requests.push(kept);
    return kept;
  }

  private record(): void {
    const { facts, scenario, journey } = this;
    recordSockets(this.page, (seen) => this.heard(seen));
    this.context.on('page', (opened) => opened !== this.page && recordSockets(opened, (seen) => this.heard(seen)));
    this.context.on('request', (request) => {
      let from = '';
      try {
        from = request.frame().url();
      } catch {
        // service worker requests have no frame
      }
      const previous = request.redirectedFrom();
      if (previous) facts.noteRedirect(previous.url(), request.url());
      const seen = this.heard({ method: request.method(), url: request.url(), referer: request.headers().referer, resourceType: request.resourceType(), from, body: request.postData()?.slice(0, MAX_BODY) });
      if (seen) this.seen.set(request, seen);
      if (AWAITED.has(request.resourceType())) this.inFlight.add(request);
      this.lastActivity = Date.now();
    });
    const done = (request: Request) => {
      // When the browser sent it, by its own clock once it knows (the harness hears of it later, by how much depends on the load).
      const seen = this.seen.get(request);
      if (seen && request.timing().startTime > 0) seen.at = request.timing().startTime;
      this.inFlight.delete(request);
      this.lastActivity = Date.now();
    };
    this.context.on('requestfinished', done);
    this.context.on('requestfailed', done);
    this.context.on('response', (response) => this.track(this.onResponse(response)));
    let messages = 0;
    this.context.on('console', (message) => {
      messages += 1;
      const whole = message.text();
      if (whole.length > CONSOLE_LIMIT.chars) forget(message);
      if (messages <= CONSOLE_LIMIT.messages) facts.console.push({ scenario, text: copyOf(whole.slice(0, CONSOLE_LIMIT.chars)) });
      else if (messages === CONSOLE_LIMIT.messages + 1) facts.noteLimit(`${scenario} (${journey}): the page wrote more than ${CONSOLE_LIMIT.messages} console messages; only the first ${CONSOLE_LIMIT.messages} were kept`);
      else if (messages === CONSOLE_LIMIT.ended) {
        // Every message reaches the harness whole, kept or not: a page that floods on is ended.
        facts.noteLimit(`${scenario} (${journey}): the page wrote ${CONSOLE_LIMIT.ended} console messages; the harness ended it`);
        void message.page()?.close().catch(() => undefined);
      }
    });
    this.page.on('crash', () => facts.noteLimit(`${scenario} (${journey}): the page crashed or was ended: it held more memory than the harness allows a page (512 MB of script, ${RENDERER_LIMIT_MB} MB in all with its workers and drawing), or its renderer died`));
    this.page.on('response', (response) => {
      if (response.request().isNavigationRequest() && response.frame() === this.page.mainFrame()) this.lastStatus = response.status();
    });
  }

  private async onResponse(response: Response): Promise<void> {
    const url = response.url();
    if (originOf(url) === this.facts.origins.emulator) {
      for (const line of await response.headerValues('set-cookie').catch(() => [] as string[])) this.emulatorCookies.add(line.slice(0, line.indexOf('=')).trim());
      return;
    }
    if (!this.facts.isAgency(url)) return;
    const request = response.request();
    const [headers, setCookies] = await Promise.all([response.allHeaders().catch((): Record<string, string> => ({})), response.headerValues('set-cookie').catch(() => [] as string[])]);
    this.facts.responses.push({ scenario: this.scenario, journey: this.journey, method: request.method(), url, status: response.status(), headers, setCookies });
    if (response.status() >= 300 && response.status() < 400) return;
    if (!TEXT_TYPES.test(headers['content-type'] ?? '')) return;
    const text = await response.text().catch(() => undefined);
    if (text !== undefined) this.facts.bodies.push({ scenario: this.scenario, url, text: text.slice(0, MAX_BODY) });
  }

  private track(promise: Promise<void>): void {
    const tracked = promise.catch(() => undefined).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /**
   * The harness's own request to the emulator beside the browser (a redirect it reads without
   * following), with the emulator's cookies of this browser and no others. Cookies belong to a host,
   * not a port: on one machine the browser holds the agency's for the emulator too, and one the
   * harness cannot send (a byte above U+00FF) would have its request refused, or another change
   * what the emulator answers.
   */
  async toEmulator(url: string, form?: Record<string, string>): Promise<{ status: number; location: string | undefined }> {
    const cookies = (await this.context.cookies(url)).filter((cookie) => this.emulatorCookies.has(cookie.name));
    const answer = await fetch(url, {
      method: form ? 'POST' : 'GET', redirect: 'manual', signal: AbortSignal.timeout(EMULATOR_MS),
      headers: cookies.length ? { cookie: cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ') } : {},
      ...(form ? { body: new URLSearchParams(form) } : {}),
    });
    await answer.arrayBuffer().catch(() => undefined);
    return { status: answer.status, location: answer.headers.get('location') ?? undefined };
  }

  /** Opens a URL and waits for its last page; never throws on an HTTP error status. */
  async goto(url: string): Promise<number | undefined> {
    const response = await this.page.goto(url, { waitUntil: 'load' });
    this.lastStatus = response?.status() ?? this.lastStatus;
    return this.lastStatus;
  }

  /**
   * Does something (a click) and waits until what it set off is over: every page, fetch or XHR
   * request it started has finished (redirects included), nothing new for a moment, and the page
   * that is then shown has loaded. Gives up waiting after `timeoutMs`, whatever the page does.
   */
  async act(action: () => Promise<void>, timeoutMs = 8000): Promise<void> {
    this.lastMark = await outside(this.page, shownMark).catch(() => ({ document: 0, at: 0 }));
    const deadline = Date.now() + timeoutMs;
    this.lastActivity = Date.now();
    await action();
    while (Date.now() < deadline && (this.inFlight.size > 0 || Date.now() - this.lastActivity < QUIET_MS)) await sleep(50);
    await this.page.waitForLoadState('load', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
  }

  /** The agency page now: what it shows, links, text; DOM and storage go to the facts for the secrets search. */
  async snapshot(view: AgencyPage, environment: Environment): Promise<PageSeen | undefined> {
    const url = this.page.url();
    if (!this.facts.isAgency(url)) return undefined;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const [seen, { shown: shows, features, learned }] = await Promise.all([outside(this.page, readPage), view.read(true)]);
        const page: PageSeen = {
          scenario: this.scenario, journey: this.journey, environment, at: Date.now(), url: this.page.url(), status: this.lastStatus, shows, links: seen.links, title: seen.title, text: seen.text, features,
          ...(learned ? { learned } : {}),
        };
        this.facts.pages.push(page);
        this.facts.storage.push({ scenario: this.scenario, url: page.url, text: `${seen.storage}\n${seen.html}` });
        return page;
      } catch (error) {
        // A page script reloading the page (delivery polling) destroys the context mid-read.
        if (attempt === 2) throw error;
        await this.page.waitForLoadState('load').catch(() => undefined);
      }
    }
  }

  /** Waits for the responses still being read, up to CLOSE_MS: a body that never ends (or one a page left as it went on) is not waited for. */
  async settle(): Promise<void> {
    await within(Promise.all([...this.pending]).then(() => undefined), CLOSE_MS, undefined);
  }

  /** The page's own requests still loading (its pages, fetches and XHRs), each as `GET /path`. */
  loading(): string[] {
    return [...this.inFlight].map((request) => `${request.method()} ${redactUrl(request.url()).split('?')[0]}`);
  }

  /** What the page is doing now, in a sentence: where it is, what it still loads, whether its main thread answers. */
  async doing(): Promise<string> {
    const loading = this.loading();
    const state = await within(outside(this.page, () => (globalThis as unknown as { document: { readyState: string } }).document.readyState), ANSWER_MS, undefined);
    const parts = [`at ${redactUrl(this.page.url())}`];
    if (state === undefined) parts.push(`its main thread did not answer within ${ANSWER_MS / 1000} s (a script that never returns, or a synchronous request never answered)`);
    else if (state !== 'complete') parts.push(`its document still ${state}`);
    if (loading.length) parts.push(`${loading.length} request(s) still loading (${loading.slice(0, 3).join(', ')}${loading.length > 3 ? ', …' : ''})`);
    return parts.length === 1 ? `${parts[0]}, idle` : parts.join(', ');
  }

  /** Closes the context, each part bounded: a page that hangs, or a body that never ends, does not hold the run. */
  async close(tracePath?: string): Promise<void> {
    this.stopWorkers();
    await this.settle();
    if (this.tracing) await within(this.context.tracing.stop(tracePath ? { path: tracePath } : {}), CLOSE_MS, undefined);
    await within(this.context.close(), CLOSE_MS, undefined);
  }
}
