/**
 * axe as the harness injects it (harness/run/capture.ts, decisions/016): a violation inside a
 * same-origin frame is found from the top page, as AxeBuilder's legacy mode finds it; the same page
 * without the frame has none, so the frame is what was analysed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BrowserSession } from '../../harness/browser/session.js';
import { ConfigSchema } from '../../harness/config.js';
import { Capturer } from '../../harness/run/capture.js';
import { RunFacts } from '../../harness/run/facts.js';
import { useChromium } from '../support/chromium.js';

const browser = useChromium();
const folder = mkdtempSync(join(tmpdir(), 'harness-capture-'));
const page = (body: string) => `<!doctype html><html lang="pl"><head><title>Strona</title></head><body><main><h1>Promocja</h1>${body}</main></body></html>`;
const PAGES: Record<string, string> = {
  '/with-frame': page('<iframe title="Nagroda" src="/frame"></iframe>'),
  '/without-frame': page('<p>Bez ramki</p>'),
  '/frame': page('<img src="/nagroda.png">'),
};
const server = createServer((req, res) => res.writeHead(PAGES[req.url!] ? 200 : 404, { 'content-type': 'text/html' }).end(PAGES[req.url!] ?? ''));
beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

async function violationsOn(path: string): Promise<string[]> {
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const facts = new RunFacts(ConfigSchema.parse({ trace: 'off' }), { agency: origin, emulator: 'http://127.0.0.1:4010', callback: `${origin}/callback` }, folder);
  const session = await BrowserSession.open(browser(), facts, 'captured', 'main', { trace: 'off', recorded: [] });
  try {
    await session.page.goto(`${origin}${path}`);
    if (path === '/with-frame') await session.page.frameLocator('iframe').locator('img').waitFor({ state: 'attached' });
    const seen = { scenario: 'captured', journey: 'main', environment: 'production' as const, at: 0, url: `${origin}${path}`, status: 200, shows: [], links: [], title: path, text: '' };
    await new Capturer(facts, { axe: true, screenshots: false }).capture(session, seen);
    const [capture] = [...facts.captures.values()];
    expect(capture!.axeError).toBeUndefined();
    return capture!.axe!.map((violation) => `${violation.id} ${violation.nodes}`);
  } finally {
    await session.close();
  }
}

test('a violation inside a same-origin frame is found from the top page; without the frame there is none', async () => {
  expect(await violationsOn('/with-frame')).toContain('image-alt 1');
  expect((await violationsOn('/without-frame')).filter((violation) => violation.startsWith('image-alt'))).toEqual([]);
}, 60_000);
