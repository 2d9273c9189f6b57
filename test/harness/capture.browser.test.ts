/**
 * axe as the harness injects it (harness/run/capture.ts, decisions/016): a violation inside a
 * same-origin frame is found from the top page, as AxeBuilder's legacy mode finds it; the same page
 * without the frame has none, so the frame is what was analysed. The other scenarios' captures
 * wait until the run's lead watches (runner.ts), and a state is analysed once, however many
 * scenarios reach it at the same time. A page as tall as the agency likes is shot to a bounded size.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MOBILE } from '../../harness/browser/device.js';
import { BrowserSession } from '../../harness/run/browser-session.js';
import { ConfigSchema } from '../../harness/config.js';
import { Capturer, SHOT_LIMIT } from '../../harness/run/capture.js';
import type { PageSeen } from '../../harness/browser/seen.js';
import { RunFacts } from '../../harness/run/facts.js';
import { useChromium } from '../support/chromium.js';

const browser = useChromium();
const folder = mkdtempSync(join(tmpdir(), 'harness-capture-'));
const page = (body: string) => `<!doctype html><html lang="pl"><head><title>Strona</title></head><body><main><h1>Promocja</h1>${body}</main></body></html>`;
const PAGES: Record<string, string> = {
  '/with-frame': page('<iframe title="Nagroda" src="/frame"></iframe>'),
  '/without-frame': page('<p>Bez ramki</p>'),
  '/frame': page('<img src="/nagroda.png">'),
  // 100,000 px of noise: what a page can ask a full-page screenshot to draw.
  '/endless': page('<meta name="viewport" content="width=device-width"><canvas id="noise" width="300" height="100000"></canvas><script>const c=document.getElementById("noise").getContext("2d");const d=c.createImageData(300,2000);for(let i=0;i<d.data.length;i++)d.data[i]=Math.random()*256;for(let y=0;y<100000;y+=2000)c.putImageData(d,0,y);</script>'),
};
const server = createServer((req, res) => res.writeHead(PAGES[req.url!] ? 200 : 404, { 'content-type': 'text/html' }).end(PAGES[req.url!] ?? ''));
beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

interface Visit {
  session: BrowserSession;
  /** The page as the harness saw it: the consent page, in production. */
  seen: PageSeen;
}

/** One run's browsers, each of a scenario on a page (`[path, scenario]`), closed after `use`. */
async function visiting(pages: Array<[string, string]>, use: (visits: Visit[], facts: RunFacts) => Promise<void>): Promise<void> {
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const facts = new RunFacts(ConfigSchema.parse({ trace: 'off' }), { agency: origin, emulator: 'http://127.0.0.1:4010', callback: `${origin}/callback` }, folder);
  const visits: Visit[] = [];
  try {
    for (const [path, scenario] of pages) {
      const session = await BrowserSession.open(browser(), facts, scenario, 'main', { trace: 'off', recorded: [] });
      visits.push({ session, seen: { scenario, journey: 'main', environment: 'production', at: 0, url: `${origin}${path}`, status: 200, shows: ['page:consent'], links: [], title: path, text: '' } });
      await session.page.goto(`${origin}${path}`);
    }
    await use(visits, facts);
  } finally {
    await Promise.all(visits.map((visit) => visit.session.close()));
  }
}

async function violationsOn(path: string): Promise<string[]> {
  let found: string[] = [];
  await visiting([[path, 'captured']], async ([{ session, seen }], facts) => {
    if (path === '/with-frame') await session.page.frameLocator('iframe').locator('img').waitFor({ state: 'attached' });
    await new Capturer(facts, { axe: true, screenshots: false }).capture(session, seen!);
    const [capture] = [...facts.captures.values()];
    expect(capture!.axeError).toBeUndefined();
    found = capture!.axe!.map((violation) => `${violation.id} ${violation.nodes}`);
  });
  return found;
}

test('a violation inside a same-origin frame is found from the top page; without the frame there is none', async () => {
  expect(await violationsOn('/with-frame')).toContain('image-alt 1');
  expect((await violationsOn('/without-frame')).filter((violation) => violation.startsWith('image-alt'))).toEqual([]);
}, 60_000);

test("another scenario's capture waits until the lead watches; the lead's own does not", async () => {
  await visiting([['/without-frame', 'sandbox-previews'], ['/with-frame', 'polling-schedule']], async ([preview, lead], facts) => {
    const capturer = new Capturer(facts, { axe: true, screenshots: false });
    let watches!: () => void;
    capturer.leadUntil(new Promise<void>((resolve) => (watches = resolve)));
    const waiting = capturer.capture(preview!.session, { ...preview!.seen, shows: ['state:won'] });
    await capturer.capture(lead!.session, lead!.seen, true);
    const analysed = () => [...facts.captures.values()].filter((capture) => capture.axe).map((capture) => capture.key);
    expect(analysed()).toEqual(['production:consent']);
    watches();
    await waiting;
    expect(analysed()).toEqual(['production:won', 'production:consent']);
  });
}, 60_000);

test('a state two scenarios reach at once is analysed once: the second leaves it to the capture under way', async () => {
  await visiting([['/without-frame', 'consent'], ['/without-frame', 'terms-change']], async (visits, facts) => {
    const capturer = new Capturer(facts, { axe: true, screenshots: false });
    await Promise.all(visits.map((visit) => capturer.capture(visit.session, visit.seen)));
    const injected = await Promise.all(visits.map((visit) => visit.session.page.evaluate(() => 'axe' in globalThis)));
    expect(injected).toEqual([true, false]);
    expect([...facts.captures.values()].map((capture) => [capture.scenario, Boolean(capture.axe)])).toEqual([['consent', true]]);
  });
}, 60_000);

test('a 100,000 px page of noise is shot to SHOT_LIMIT\'s size, at CSS pixels, and the notes say where it was cut (issue 48 item 3)', async () => {
  await visiting([['/endless', 'endless']], async ([{ session, seen }], facts) => {
    await new Capturer(facts, { axe: false, screenshots: true }).capture(session, seen);
    const { mobile, desktop } = [...facts.captures.values()][0]!.screenshots;
    // A PNG's width and height sit at bytes 16 and 20, in its header chunk.
    const size = (path: string) => [readFileSync(path).readUInt32BE(16), readFileSync(path).readUInt32BE(20)];
    expect(size(mobile!)).toEqual([MOBILE.viewport.width, SHOT_LIMIT.height]);
    expect(size(desktop!)).toEqual([1280, SHOT_LIMIT.height]);
    expect(existsSync(mobile!) && existsSync(desktop!)).toBe(true);
    expect(facts.notes.join('\n')).toContain(`the mobile screenshot of production:consent shows the first ${2 * MOBILE.viewport.width} x ${SHOT_LIMIT.height} px of a ${MOBILE.viewport.width} x 100`);
  });
}, 60_000);
