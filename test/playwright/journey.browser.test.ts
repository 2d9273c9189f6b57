/** The fixtures' journey in a real browser, where the agency's site stops answering: its error says so (issue 40 item 5). */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, test } from 'vitest';
import { type WorkerEmulator, workerEmulator } from '../../playwright/emulator.js';
import { Journey } from '../../playwright/journey.js';
import { useChromium } from '../support/chromium.js';

const browser = useChromium();
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

test('a scan whose callback no longer answers fails saying the callback is not reachable, not what the error page\'s URL reads', { timeout: 120_000 }, async () => {
  const site = createServer((_req, res) => res.end('ok')).listen(0, '127.0.0.1');
  await new Promise((resolve) => site.once('listening', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const emulator: WorkerEmulator = await workerEmulator({ agency: { callbackUrl: `${origin}/callback` }, approve: true }, { index: 0, of: 1 });
  closers.push(() => emulator.close());
  // The site goes away after the brand approved it.
  site.closeAllConnections();
  await new Promise((closed) => site.close(closed));

  const context = await browser().newContext();
  closers.push(() => context.close());
  const journey = new Journey(await context.newPage(), emulator);
  const failure = await journey.scan({ outcome: 'won' }).then(() => undefined, (error: Error) => error.message);
  expect(failure).toMatch(new RegExp(`^\\[promo-emulator\\] after scanning \\S+ the browser could not load the agency's callback ${origin}/callback: not reachable`));
  expect(failure).not.toContain('null/');
});
