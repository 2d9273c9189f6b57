/**
 * One browser context of a scenario (one collector's browser, or a probe's fresh one) and what it
 * records: every request, every response from the agency's origin with its headers, cookies and
 * text, the console, and after each step what the page shows, its links, DOM and storage. It
 * never waits for a navigation: after an action it waits until the requests the action set off
 * have finished and the page has loaded, which holds for a form post and a `fetch` alike.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, BrowserContext, Page, Request, Response } from 'playwright-core';
import type { TraceMode } from '../config.js';
import type { AgencyPage, ShownMark } from '../pages/agency.js';
import type { RunFacts } from '../run/facts.js';
import type { Environment, PageSeen, RequestSeen } from '../run/browser-seen.js';
import { readPage, recordShown, shownMark } from './in-page.js';

/** A phone, as most collectors scan; desktop screenshots resize the same page. */
export const MOBILE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
};
export const DESKTOP_VIEWPORT = { width: 1280, height: 800 };

const MAX_BODY = 500_000;
const TEXT_TYPES = /html|json|javascript|ecmascript|text\//i;
/** Requests an action waits for; a stream (event source, web socket) never finishes, so it is not one. */
const AWAITED = new Set(['document', 'fetch', 'xhr']);
/** After the last of them: quiet this long means the page is done with the action. */
const QUIET_MS = 250;

export class BrowserSession {
  private readonly pending = new Set<Promise<void>>();
  private readonly inFlight = new Set<Request>();
  private readonly seen = new WeakMap<Request, RequestSeen>();
  private lastActivity = 0;
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
   * selectors every page records its changes of (`recordShown`).
   */
  static async open(browser: Browser, facts: RunFacts, scenario: string, journey: string, options: { trace: TraceMode; clock?: boolean; recorded: string[]; timeoutMs?: number }): Promise<BrowserSession> {
    const context = await browser.newContext(MOBILE);
    // A cap, not a wait: a loaded machine can take seconds for one click.
    context.setDefaultTimeout(options.timeoutMs ?? 20_000);
    const tracing = options.trace !== 'off';
    if (tracing) await context.tracing.start({ snapshots: options.trace === 'on-failure-with-snapshots', screenshots: false });
    if (options.clock) await context.clock.install();
    await context.addInitScript(recordShown, options.recorded);
    const page = await context.newPage();
    const session = new BrowserSession(context, page, facts, scenario, journey, tracing);
    session.record();
    return session;
  }

  private record(): void {
    const { facts, scenario, journey } = this;
    this.context.on('request', (request) => {
      let from = '';
      try {
        from = request.frame().url();
      } catch {
        // service worker requests have no frame
      }
      const seen = { scenario, journey, at: Date.now(), method: request.method(), url: request.url(), referer: request.headers().referer, resourceType: request.resourceType(), from, body: request.postData()?.slice(0, MAX_BODY) };
      facts.requests.push(seen);
      this.seen.set(request, seen);
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
    this.context.on('console', (message) => facts.console.push({ scenario, text: message.text() }));
    this.page.on('response', (response) => {
      if (response.request().isNavigationRequest() && response.frame() === this.page.mainFrame()) this.lastStatus = response.status();
    });
  }

  private async onResponse(response: Response): Promise<void> {
    const url = response.url();
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
    this.lastMark = await this.page.evaluate(shownMark).catch(() => ({ document: 0, at: 0 }));
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
        const [seen, { shown: shows, features }] = await Promise.all([this.page.evaluate(readPage), view.read(true)]);
        const page: PageSeen = {
          scenario: this.scenario, journey: this.journey, environment, at: Date.now(), url: this.page.url(), status: this.lastStatus, shows, links: seen.links, title: seen.title, text: seen.text, features,
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

  /** Waits for the responses still being read. */
  async settle(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  async close(tracePath?: string): Promise<void> {
    await this.settle();
    if (this.tracing) await this.context.tracing.stop(tracePath ? { path: tracePath } : {}).catch(() => undefined);
    await this.context.close().catch(() => undefined);
  }
}
