/**
 * The example suite attached to one running emulator and one running agency, as an agency whose
 * config starts both with `webServer` would run it: test/playwright/examples.test.ts starts them and
 * passes their URLs. Two workers share the emulator, so the test that moves its clock stays out.
 */
import { defineConfig } from '@playwright/test';
import type { PromoOptions } from 'promo-emulator/playwright';

export default defineConfig<PromoOptions>({
  testDir: '../../examples/playwright',
  grepInvert: /expired session/,
  fullyParallel: true,
  workers: 2,
  expect: { timeout: 15_000 },
  use: {
    emulatorUrl: process.env.TEST_EMULATOR_URL,
    agency: { callbackUrl: process.env.TEST_AGENCY_CALLBACK!, previewUrl: process.env.TEST_AGENCY_PREVIEW },
  },
});
