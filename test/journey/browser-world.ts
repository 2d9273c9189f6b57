/**
 * One emulator (in memory, frozen clock) and one tiny agency per browser test, plus page objects
 * for the journey's pages, so tests read as the steps a collector takes.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { approve } from '../../emulator/use-cases/console/approval.js';
import { setCallbacks } from '../../emulator/use-cases/console/callbacks.js';
import { isRefused } from '../../emulator/wire-contract.js';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import { createLogger } from '../../emulator/logger.js';
import { type Running, startServer } from '../../emulator/server.js';
import { DEFAULT_FIXTURE, FROZEN_AT } from '../world.js';
import { coverSandbox, fetchPost } from '../support/sandbox-coverage.js';
import { type AgencyDefect, startAgency } from './agency.js';

export const PHONE = {
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
  viewport: { width: 390, height: 844 },
};

export async function journeyWorld(browser: Browser, options: { approved?: boolean; defect?: AgencyDefect; onServiceRequest?: (emulator: Running) => void } = {}) {
  const emulator = await startServer({
    fixture: DEFAULT_FIXTURE, data: ':memory:', host: '127.0.0.1', port: 0, clock: { mode: 'frozen', frozenAt: FROZEN_AT },
    logger: createLogger('emulator', { level: 'silent' }),
  });
  const env = envValues(emulator.world);
  const agency = await startAgency({
    emulatorUrl: emulator.baseUrl, productionKey: env.production_key!, defect: options.defect,
    onServiceRequest: options.onServiceRequest && (() => options.onServiceRequest!(emulator)),
  });
  if (options.approved ?? true) {
    setCallbacks(emulator.world, { production: agency.callbackUrl });
    await coverSandbox(fetchPost(emulator.baseUrl, env.sandbox_key!));
    if (isRefused(approve(emulator.world))) throw new Error('the test world could not be approved');
  }
  const context: BrowserContext = await browser.newContext(PHONE);
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  return {
    emulator, env, agency, page, journey: new Journey(page, emulator.baseUrl),
    packCode: (outcome = 'won') => env.packs.find((pack) => pack.outcome === outcome)!.code,
    async close() {
      await context.close();
      await agency.close();
      await emulator.close();
    },
  };
}

/** The journey's pages, as a collector uses them. */
export class Journey {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  /** Opens the pack's QR link, signing in as `email` when asked to. */
  async scan(code: string, email = 'anna.weber@example.test') {
    await this.page.goto(`${this.baseUrl}/q/${code}`);
    if (this.path() === '/sign-in') await this.submit(this.page.getByRole('button', { name: `Sign in as ${email}` }));
  }

  async continueOnAuthorize() {
    await this.submit(this.page.getByRole('button', { name: 'Continue' }));
  }

  /** Ticks the consent boxes shown (terms and, where asked, age) and submits. */
  async acceptAndEnter(submit: string | RegExp = /.+/) {
    const form = this.page.locator('form:has(input[type=checkbox])');
    for (const box of await form.getByRole('checkbox').all()) await box.check();
    await this.submit(form.getByRole('button', { name: submit }));
  }

  /** Clicks a form's button and waits for the load event of the page its redirect chain lands on. */
  private async submit(button: Locator) {
    const landed = this.page.waitForEvent('load');
    await button.click();
    await landed;
  }

  heading() {
    return this.page.getByRole('heading', { level: 1 }).textContent();
  }

  path() {
    return new URL(this.page.url()).pathname;
  }
}
