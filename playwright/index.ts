/**
 * `promo-emulator/playwright`: Playwright Test fixtures for an agency's own tests.
 *
 *   import { test, expect } from 'promo-emulator/playwright';
 *   test('shows the prize', async ({ page, journey }) => {
 *     await journey.scan({ outcome: 'won' });
 *     await journey.authorize();
 *     ...
 *   });
 *
 * Each worker starts an emulator on a free port with a fresh data folder (or attaches to a running
 * one: `emulatorUrl`, or PROMO_EMULATOR_URL), approves the agency under test, and gives its tests
 * `emulator` (its values, packs by outcome, clock, faults, reset) and `journey` (a collector's
 * browser journey in the test's `page`, up to the agency). When Playwright's own Chromium is not
 * installed, the browser is the one the harness finds (HARNESS_CHROMIUM, then the system's).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromiumPath } from '../harness/browser/chromium.js';
import { type AgencyUrls, type PromoEmulator, type StartAgency, workerEmulator } from './emulator.js';
import { Journey } from './journey.js';

/**
 * The Playwright Test that runs the tests: it refuses a second copy of itself, which this package's
 * own would be when the package is linked from a checkout (`npm install /path/to/promo-emulator`).
 * `process.argv[1]` is the running Playwright's command or worker.
 */
function runningPlaywrightTest(): typeof import('@playwright/test') {
  for (const from of [process.argv[1], import.meta.url]) {
    try {
      if (from) return createRequire(from)('@playwright/test') as typeof import('@playwright/test');
    } catch {
      // not installed beside it: try the next
    }
  }
  throw new Error('[promo-emulator] promo-emulator/playwright needs @playwright/test: npm install --save-dev @playwright/test');
}

const { test: base, expect } = runningPlaywrightTest();
export { expect };
export type { AgencyUrls, Env, FaultSpec, Pack, PackOutcome, PromoEmulator, StartAgency } from './emulator.js';
export type { Journey, ScanOptions } from './journey.js';

/**
 * The agency under test: its URLs when it already runs against the emulator (with `emulatorUrl`),
 * or `start`, which starts one per worker against that worker's emulator. An object, because
 * Playwright would take a function given as an option for a fixture of its own.
 */
export type AgencyOption = AgencyUrls | { start: StartAgency };

/** Set these in the config's `use`, or with `test.use()` at the top of a file. */
export interface PromoOptions {
  /** A running emulator to attach to; default PROMO_EMULATOR_URL, else each worker starts its own. */
  emulatorUrl: string | undefined;
  /** The control token of an attached emulator off loopback; default EMULATOR_CONTROL_TOKEN. */
  emulatorControlToken: string | undefined;
  /** The world a started emulator seeds; default the built-in fixtures/default.json. */
  emulatorFixture: string | undefined;
  /** Overrides the fixture's seed (keys, codes and draws derive from it). */
  emulatorSeed: string | undefined;
  agency: AgencyOption | undefined;
  /**
   * Register the agency's URLs, make the six sandbox calls with the sandbox key and approve, as a
   * brand that approved earlier would have, so scans reach the agency. Default true; false leaves
   * the checklist and the approval to the tests.
   */
  approve: boolean;
}

interface PromoWorkerFixtures extends PromoOptions {
  emulator: PromoEmulator;
}

interface PromoTestFixtures {
  journey: Journey;
}

export const test = base.extend<PromoTestFixtures, PromoWorkerFixtures>({
  emulatorUrl: [process.env.PROMO_EMULATOR_URL || undefined, { scope: 'worker', option: true }],
  emulatorControlToken: [process.env.EMULATOR_CONTROL_TOKEN || undefined, { scope: 'worker', option: true }],
  emulatorFixture: [undefined, { scope: 'worker', option: true }],
  emulatorSeed: [undefined, { scope: 'worker', option: true }],
  agency: [undefined, { scope: 'worker', option: true }],
  approve: [true, { scope: 'worker', option: true }],

  emulator: [
    async ({ emulatorUrl, emulatorControlToken, emulatorFixture, emulatorSeed, agency, approve }, use, workerInfo) => {
      const emulator = await workerEmulator(
        { url: emulatorUrl, controlToken: emulatorControlToken, fixture: emulatorFixture, seed: emulatorSeed, agency: agency && ('start' in agency ? agency.start : agency), approve },
        { index: workerInfo.parallelIndex, of: workerInfo.config.workers },
      );
      try {
        await use(emulator);
      } finally {
        await emulator.close();
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],

  journey: async ({ page, emulator }, use) => {
    await use(new Journey(page, emulator));
  },

  launchOptions: [
    async ({ launchOptions, playwright, browserName }, use) => {
      const chosen = launchOptions.executablePath || launchOptions.channel || browserName !== 'chromium';
      const installed = !process.env.HARNESS_CHROMIUM && existsSync(playwright.chromium.executablePath());
      await use(chosen || installed ? launchOptions : { ...launchOptions, executablePath: await chromiumPath() });
    },
    { scope: 'worker' },
  ],
});
