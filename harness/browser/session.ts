/**
 * One browser context of a scenario (one collector's browser, or a probe's fresh one) and what it
 * records: every request, every response from the agency's origin with its headers, cookies and
 * text, the console, and after each step the page's markers, links, DOM and storage.
 */
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import type { PageSeen, RunFacts } from '../run/facts.js';
import { readPage } from './in-page.js';

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

export class BrowserSession {
  private readonly pending = new Set<Promise<void>>();
  /** Status of the last main-frame document. */
  lastStatus: number | undefined;

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    private readonly facts: RunFacts,
    readonly scenario: string,
    readonly journey: string,
    readonly tracing: boolean,
  ) {}

  static async open(browser: Browser, facts: RunFacts, scenario: string, journey: string, options: { trace: boolean; timeoutMs?: number }): Promise<BrowserSession> {
    const context = await browser.newContext(MOBILE);
    context.setDefaultTimeout(options.timeoutMs ?? 10_000);
    if (options.trace) await context.tracing.start({ snapshots: true, screenshots: false });
    const page = await context.newPage();
    const session = new BrowserSession(context, page, facts, scenario, journey, options.trace);
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
      facts.requests.push({ scenario, journey, url: request.url(), referer: request.headers().referer, resourceType: request.resourceType(), from });
    });
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

  /** Clicks and waits until the redirect chain has loaded its last page. */
  async clickAndWait(click: () => Promise<void>): Promise<void> {
    await Promise.all([this.page.waitForNavigation({ waitUntil: 'load' }), click()]);
  }

  /** The agency page now: markers, links, text; DOM and storage go to the facts for the secrets search. */
  async snapshot(mainSelector: string): Promise<PageSeen | undefined> {
    const url = this.page.url();
    if (!this.facts.isAgency(url)) return undefined;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const seen = await this.page.evaluate(readPage, mainSelector);
        const page: PageSeen = { scenario: this.scenario, journey: this.journey, at: Date.now(), url: this.page.url(), status: this.lastStatus, markers: seen.markers, links: seen.links, text: seen.text };
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
