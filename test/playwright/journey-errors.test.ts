/**
 * What the fixtures' journey says when the browser is on an emulator's authorize page, but not the
 * worker's own (an agency holding another emulator's keys): it names both emulators and what to
 * do. A page that stands still where it is put stands in for the browser: no Chromium needed.
 */
import type { Page } from '@playwright/test';
import { expect, test } from 'vitest';
import { Journey } from '../../playwright/journey.js';
import type { PromoEmulator } from '../../playwright/emulator.js';

const OURS = 'http://127.0.0.1:45123';
const OTHER = 'http://127.0.0.1:4010';

/** A page at `url` that never moves: every wait for another address times out at once. */
function pageAt(url: string): Page {
  return {
    url: () => url,
    goto: async () => null,
    waitForURL: async () => { throw new Error('Timeout'); },
    locator: () => ({}),
    getByRole: () => ({}),
  } as unknown as Page;
}

const emulator = { url: OURS, agency: { callbackUrl: 'http://127.0.0.1:3000/callback', previewUrl: 'http://127.0.0.1:3000/preview' }, pack: async () => ({ code: 'PACK-1' }) } as unknown as PromoEmulator;

test("scan() and authorize() on another emulator's authorize page name that emulator and the worker's own", async () => {
  const page = pageAt(`${OTHER}/authorize?request_token=rt_x&state=s`);
  const journey = new Journey(page, emulator);
  const said = `the authorize page of another emulator, at ${OTHER}, not of this worker's emulator at ${OURS}`;
  await expect(journey.scan()).rejects.toThrow(`[promo-emulator] after scanning PACK-1 the browser shows ${said}: the agency runs with that emulator's keys`);
  await expect(journey.authorize()).rejects.toThrow(`[promo-emulator] journey.authorize(): the browser shows ${said}`);
  // Any other page is still "not the service's authorize page".
  await expect(new Journey(pageAt(`${OTHER}/rewards`), emulator).authorize()).rejects.toThrow(`the browser shows ${OTHER}/rewards, not the service's authorize page: call journey.scan() first`);
});
