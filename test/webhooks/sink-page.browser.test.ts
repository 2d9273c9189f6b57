/** The sink page in Chromium: deliveries appear without a reload, newest first, and Redeliver sends one again. */
import { expect, test } from 'vitest';
import { useChromium } from '../support/chromium.js';
import { recordScan, useRunningEmulator } from './emulator.js';

const browser = useChromium();
const t = useRunningEmulator();

test('a delivery shows up on the open page, on top; Redeliver sends the same event again as a new delivery', async () => {
  await t().createSink({ name: 'crm', events: ['scan.processed'] });
  const page = await browser().newPage();
  const problems: string[] = [];
  // The shared page layout names no icon, so the browser's own request for /favicon.ico is not the page's problem.
  page.on('console', (message) => void (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico') && problems.push(message.text())));
  try {
    await page.goto(`${t().running.baseUrl}/_emulator/sink/crm`);
    await expect.poll(() => page.getByText('Nothing received yet.').count()).toBe(1);

    const first = recordScan(t().world);
    const articles = page.locator('#deliveries article');
    await expect.poll(() => articles.count(), { timeout: 10_000 }).toBe(1);
    const second = recordScan(t().world);
    await expect.poll(() => articles.count(), { timeout: 10_000 }).toBe(2);
    const scanIds = await articles.locator('pre').allTextContents();
    expect(scanIds.map((text) => (JSON.parse(text) as { data: { scan: { id: number } } }).data.scan.id)).toEqual([second, first]);
    expect(await articles.first().getByText('Signature valid').count()).toBe(1);

    const [newest] = await t().sinkEvents('crm');
    await articles.first().getByRole('button', { name: 'Redeliver' }).click();
    await expect.poll(() => articles.first().getByRole('status').textContent()).toMatch(/^Sent again as dlv_[0-9a-f]{24}\.$/);
    await expect.poll(() => articles.count(), { timeout: 10_000 }).toBe(3);
    const [again] = await t().sinkEvents('crm');
    expect(again!.payload.id).toBe(newest!.payload.id);
    expect(again!.delivery).not.toBe(newest!.delivery);
    expect(await articles.first().getAttribute('data-id')).toBe(String(again!.id));

    await articles.first().getByText(/^Headers \(\d+\)$/).click();
    expect(await articles.first().getByRole('cell', { name: again!.delivery }).count()).toBe(1);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});
