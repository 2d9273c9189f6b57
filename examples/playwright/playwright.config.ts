/**
 * The example suite of `promo-emulator/playwright`, run against the reference agency. Each worker
 * starts an emulator and, through `agency.start`, the reference agency pointed at it: your own
 * config starts your site there instead (or, with `emulatorUrl`, names the one already running).
 *
 *   npm run build && npx playwright test -c examples/playwright
 */
import { defineConfig } from '@playwright/test';
import type { PromoOptions } from 'promo-emulator/playwright';
import { createAgencyLogger } from '../../fixtures/agency-reference/logger.js';
import { startAgency } from '../../fixtures/agency-reference/server.js';

export default defineConfig<PromoOptions>({
  testDir: '.',
  fullyParallel: true,
  workers: 2,
  // A pending page polls the service after 2, 5 and 10 seconds: a settled delivery shows within one of those.
  expect: { timeout: 15_000 },
  reporter: 'list',
  use: {
    agency: {
      start: ({ env }) =>
        startAgency({ port: 0, emulatorUrl: env.base_url, keys: { sandbox: env.sandbox_key, production: env.production_key }, logger: createAgencyLogger(undefined, 'silent') }),
    },
  },
});
