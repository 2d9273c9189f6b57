/** The dashboard in Chromium: at a phone's 390 px nothing overflows the page, and the Packs panel's QR codes are drawn (issue 15). */
import { beforeAll, describe, expect, it } from 'vitest';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import { useChromium } from '../support/chromium.js';
import { useRunningEmulator } from '../webhooks/emulator.js';

describe('the dashboard in Chromium', () => {
  const browser = useChromium();
  const t = useRunningEmulator();
  beforeAll(async () => {
    // Long rows in the interaction log: a body with a long unbroken value, and an error code.
    await t().api.post('/api/experience/v1/sessions').set('Authorization', `Bearer ${envValues(t().world).sandbox_key}`).send({ scenario: 'x'.repeat(300) });
    await t().api.post('/_emulator/sinks').send({ name: 'crm-with-a-rather-long-name-for-a-narrow-screen' }).expect(201);
  });

  it.each([['the default promotion', '/'], ['another promotion', '/?promotion=nordkakao-cafe-codes']])('%s at 390 px: no horizontal overflow, keys and the log wrap inside the page', async (_name, path) => {
    const page = await browser().newPage({ viewport: { width: 390, height: 844 } });
    try {
      await page.goto(`${t().running.baseUrl}${path}`);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      // No table hides columns behind a scroll of its own either.
      const hidden = await page.evaluate<string[]>(`[...document.querySelectorAll('.table')].filter((box) => box.scrollWidth > box.clientWidth).map((box) => box.getAttribute('aria-label') || box.getAttribute('aria-labelledby'))`);
      expect(hidden).toEqual([]);
      // Every key is shown whole: its cell is not cut off by a scrolling table.
      for (const key of await page.locator('section[aria-labelledby="keys"] td code').all()) {
        const box = (await key.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
      }
      expect(await page.locator('#log tr').count()).toBeGreaterThan(0);
      const qr = page.getByRole('img', { name: /^QR code of pack / }).first();
      expect(await qr.locator('svg path').count()).toBe(1);
      expect((await qr.boundingBox())!.width).toBeGreaterThan(100);
      // Every pack code on one line, inside its own column (none wraps mid-code or runs into the next).
      const codes = await page.evaluate<Array<{ lines: number; inside: boolean }>>(`[...document.querySelectorAll('ul.packs li')].map((li) => {
        const code = li.querySelector('code');
        return { lines: new Set([...code.getClientRects()].map((rect) => Math.round(rect.top))).size, inside: code.getBoundingClientRect().right <= li.getBoundingClientRect().right + 0.5 };
      })`);
      expect(codes.length).toBeGreaterThan(0);
      expect(codes.filter((code) => code.lines !== 1 || !code.inside)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
