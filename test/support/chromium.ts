/** The browser tests use the harness's Chromium finder: one search order for the whole project. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from '../../harness/browser/chromium.js';

export { chromiumPath } from '../../harness/browser/chromium.js';

/**
 * One Chromium for the enclosing file or describe block: launched before its tests (the finder may
 * install one, hence the long timeout), closed after them. Call it before any beforeAll that uses it.
 */
export function useChromium(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('useChromium: the browser is not launched yet (use it inside a test or a later beforeAll)');
    return browser;
  };
}
