/**
 * A collector's journey in the test's own page, up to the agency: scan a pack of a known outcome
 * (signing in as a new collector of a country), then Continue on the service's authorize page. What
 * the agency shows from there is the test's to check. The service's pages are driven through the
 * harness's page objects.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { AuthorizePage, SignInPage } from '../harness/pages/emulator.js';
import type { Pack, PackOutcome, PromoEmulator } from './emulator.js';

export interface ScanOptions {
  /** The outcome of the pack's seeded draw; `pending_failed` is a pending delivery that will fail. Default `won`. */
  outcome?: PackOutcome;
  /** The new collector's country; the default fixture's campaign runs in DE, AT and CH. Default `DE`. */
  country?: string;
}

const WAIT_MS = 15_000;

export class Journey {
  /** The pack of the last scan. */
  pack: Pack | undefined;

  constructor(
    private readonly page: Page,
    private readonly emulator: PromoEmulator,
  ) {}

  /**
   * Takes a pack of the outcome, opens its QR code's URL, signs in as a new collector of the
   * country and follows the service to the agency's callback, which sends the browser on to the
   * service's authorize page: where this ends.
   */
  async scan(options: ScanOptions = {}): Promise<Pack> {
    const pack = await this.emulator.pack(options.outcome ?? 'won');
    this.pack = pack;
    await this.page.goto(`${this.emulator.url}/q/${encodeURIComponent(pack.code)}`);
    const signIn = new SignInPage(this.page);
    if (signIn.isShown()) {
      const email = `collector-${randomBytes(6).toString('hex')}@example.test`;
      await signIn.signIn(email, options.country ?? 'DE', (button) => this.clickAndLoad(() => button.click()));
    }
    await this.arrive(() => new AuthorizePage(this.page).isShown(this.emulator.url), () => {
      const callback = this.emulator.agency?.callbackUrl;
      if (this.onErrorPage() && callback) return `after scanning ${pack.code} the browser could not load the agency's callback ${callback}: not reachable (is your site still running?)`;
      const other = this.otherEmulator();
      if (other) return `after scanning ${pack.code} the browser shows ${other}`;
      return `after scanning ${pack.code} the browser shows ${this.here()}, not the service's authorize page: ` +
        (this.emulator.agency ? "does the agency's callback send the browser to authorize_url?" : 'tell the fixtures where your agency is (the `agency` option)');
    });
    return pack;
  }

  /** Presses Continue on the authorize page; ends when the agency's page has loaded. */
  async authorize(): Promise<void> {
    const authorize = new AuthorizePage(this.page);
    if (!authorize.isShown(this.emulator.url)) {
      throw new Error(`[promo-emulator] journey.authorize(): the browser shows ${this.otherEmulator() ?? `${this.here()}, not the service's authorize page: call journey.scan() first`}`);
    }
    await this.clickAndLoad(() => authorize.continueButton.click());
    await this.arrive((url) => url.origin !== this.emulator.url, () => `after Continue the browser stays on ${this.here()}`);
  }

  /**
   * The pending delivery of the scanned pack arrives (`delivered`) or fails at the service's next
   * read; the default is what the pack's draw holds.
   */
  async settleDelivery(outcome?: 'delivered' | 'failed'): Promise<void> {
    if (!this.pack) throw new Error('[promo-emulator] journey.settleDelivery(): no pack yet: call journey.scan() first');
    await this.emulator.client.settle(this.pack.code, outcome ?? (this.pack.settles_as === 'failed' ? 'failed' : 'delivered'));
  }

  /** A click whose page load (a form post, a link) is waited for, redirects and all. */
  private async clickAndLoad(click: () => Promise<void>): Promise<void> {
    await Promise.all([this.page.waitForEvent('framenavigated', { predicate: (frame) => frame === this.page.mainFrame(), timeout: WAIT_MS }), click()]);
    await this.page.waitForLoadState('load');
  }

  /** Waits until the page is where `at` says, failing at once on the browser's error page, from which the journey cannot go on. */
  private async arrive(at: (url: URL) => boolean, problem: () => string): Promise<void> {
    const arrived = await this.page.waitForURL((url) => at(url) || url.protocol === 'chrome-error:', { timeout: WAIT_MS }).then(() => at(new URL(this.page.url())), () => false);
    if (!arrived) throw new Error(`[promo-emulator] ${problem()}`);
  }

  /**
   * When the page is the authorize page of an emulator other than this worker's (an agency that
   * holds another emulator's keys sends browsers to its authorize_url), says so and what to do.
   */
  private otherEmulator(): string | undefined {
    if (this.onErrorPage()) return undefined;
    const url = new URL(this.page.url());
    if (url.pathname !== '/authorize' || url.origin === this.emulator.url) return undefined;
    return `the authorize page of another emulator, at ${url.origin}, not of this worker's emulator at ${this.emulator.url}: ` +
      'the agency runs with that emulator\'s keys; attach the fixtures to it (`emulatorUrl` or PROMO_EMULATOR_URL), or have them start the agency against this worker\'s emulator (`agency: { start }`)';
  }

  private here(): string {
    if (this.onErrorPage()) return "the browser's error page (the address did not answer)";
    const url = new URL(this.page.url());
    return `${url.origin}${url.pathname}`;
  }

  /** Chromium's page for a navigation that got no answer (connection refused, no such host). */
  private onErrorPage(): boolean {
    return this.page.url().startsWith('chrome-error:');
  }
}
