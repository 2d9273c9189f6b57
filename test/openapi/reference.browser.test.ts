/** The browsable API reference: Swagger UI from the emulator itself, under the page's own CSP, in Chromium. */
import { describe, expect, it } from 'vitest';
import { EXPERIENCE_API } from '../../emulator/openapi/experience.js';
import { REPORTING_API } from '../../emulator/openapi/reporting.js';
import { WEBHOOK_EVENTS } from '../../emulator/store/webhooks.js';
import { useChromium } from '../support/chromium.js';
import { useRunningEmulator } from '../webhooks/emulator.js';
import { testWorld } from '../world.js';

const operations = (routes: object) => Object.values(routes).reduce((count: number, methods: object) => count + Object.keys(methods).length, 0);

describe('the API reference pages', () => {
  it('/_emulator/api-docs leads to the experience API; each page loads only the emulator\'s own files, under a CSP without a CDN', async () => {
    const { api } = testWorld();
    await api.get('/_emulator/api-docs').expect(302).expect('Location', '/_emulator/api-docs/experience');
    for (const [name, doc] of [['experience', EXPERIENCE_API], ['reporting', REPORTING_API]] as const) {
      const page = await api.get(`/_emulator/api-docs/${name}`).expect(200).expect('Content-Type', /^text\/html/);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['content-security-policy']).not.toMatch(/https?:/);
      expect(page.text).toContain(`data-document="${doc.root}/openapi.json"`);
      const loaded = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
      expect(loaded.filter((url) => /^(?:https?:)?\/\//.test(url))).toEqual([]);
      for (const asset of loaded.filter((url) => url.startsWith('/_emulator/api-docs/assets/'))) await api.get(asset).expect(200);
    }
    const bundle = await api.get('/_emulator/api-docs/assets/swagger-ui-bundle.js').expect(200).expect('Content-Type', /^text\/javascript/);
    expect(bundle.text.length).toBeGreaterThan(500_000);
    await api.get('/_emulator/api-docs/assets/swagger-ui.css').expect(200).expect('Content-Type', /^text\/css/);
    await api.get('/_emulator/api-docs/assets/package.json').expect(404);
    await api.get('/_emulator/api-docs/other').expect(404);
    // A name the object has only by inheritance is no API either.
    await api.get('/_emulator/api-docs/constructor').expect(404);
  });

  describe('in Chromium', () => {
    const browser = useChromium();
    const t = useRunningEmulator();

    it.each([['experience', EXPERIENCE_API], ['reporting', REPORTING_API]] as const)('shows every operation of the %s API, with no error or CSP violation', async (name, doc) => {
      const page = await browser().newPage();
      const problems: string[] = [];
      page.on('console', (message) => void (message.type() === 'error' && problems.push(message.text())));
      page.on('pageerror', (error) => void problems.push(error.message));
      try {
        await page.goto(`${t().running.baseUrl}/_emulator/api-docs/${name}`);
        await expect.poll(() => page.locator('.opblock').count(), { timeout: 15_000 }).toBe(operations(doc.routes) + Object.keys(doc.webhooks ?? {}).length);
        await expect.poll(() => page.getByRole('heading', { name: doc.title }).count()).toBe(1);
        if (doc.webhooks) for (const event of WEBHOOK_EVENTS) expect(await page.locator('.opblock-summary', { hasText: event }).count(), event).toBe(1);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    });
  });
});
