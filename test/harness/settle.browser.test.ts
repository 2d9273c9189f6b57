/**
 * A page is read once it has arrived (harness/pages/settle.ts): a client-rendered page that shows
 * a loading placeholder first is read with its content; a page still loading at the bound is read
 * as it is, and the reading says what still showed it loading. Structure and ARIA only: the
 * placeholder here is Spanish, the harness reads no word of it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { untilSettled } from '../../harness/pages/settle.js';
import { useChromium } from '../support/chromium.js';

const browser = useChromium();
let page: Page;
beforeAll(async () => {
  page = await browser().newPage();
});
afterAll(async () => {
  await page.close();
});

const quiet = () => ({ page, loading: (): string[] => [] });

test('a loading placeholder (a live region alone in the main content) is waited for until the campaign is drawn', async () => {
  await page.setContent(`<main><p role="status">Cargando la promoción…</p></main>
    <script>setTimeout(() => { document.querySelector('main').innerHTML = '<h1>Fiesta de primavera</h1><p>Escanea tu paquete.</p>'; }, 500);</script>`);
  expect(await untilSettled(quiet(), 4000)).toBeUndefined();
  expect(await page.locator('main').innerText()).toContain('Fiesta de primavera');
});

test('a page with a heading beside its live region (a pending result) is settled at once', async () => {
  await page.setContent('<main><h2>¡Has ganado!</h2><p role="status">Esta página se actualiza sola.</p></main>');
  expect(await untilSettled(quiet(), 4000)).toBeUndefined();
});

test('a page that keeps changing in place (a countdown ticking, its size and text alike) is still: settled, not read at the bound', async () => {
  await page.setContent(`<main><h1>Fiesta de primavera</h1><p>Quedan <span>9</span> s</p></main>
    <script>let n = 0; setInterval(() => { document.querySelector('span').textContent = String(9 - (++n % 10)); }, 40);</script>`);
  expect(await untilSettled(quiet(), 2000)).toBeUndefined();
});

test('at the bound a page still loading is read as it is, and the reading says why: busy, a request, a DOM that keeps changing', async () => {
  await page.setContent('<main aria-busy="true"><h1>Fiesta de primavera</h1></main>');
  expect(await untilSettled(quiet(), 600)).toBe('still loading after 0.6 s: busy: main[aria-busy]');
  await page.setContent('<main><h1>Fiesta de primavera</h1><progress></progress></main>');
  expect(await untilSettled({ page, loading: () => ['GET /api/campaign'] }, 600)).toBe('still loading after 0.6 s: 1 request(s) loading (GET /api/campaign); busy: progress');
  await page.setContent(`<main><h1>Fiesta</h1><ul></ul></main><script>setInterval(() => document.querySelector('ul').append(document.createElement('li')), 50);</script>`);
  expect(await untilSettled(quiet(), 600)).toBe('still loading after 0.6 s: its DOM still changing');
});
