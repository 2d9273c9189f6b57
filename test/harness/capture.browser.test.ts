/**
 * axe as the harness injects it (harness/run/capture.ts, decisions/016): a violation inside a
 * same-origin frame is found from the top page, as AxeBuilder's legacy mode finds it; the same page
 * without the frame has none, so the frame is what was analysed. And what the run's lead does not
 * capture (runner.ts): a state it leaves is captured by the next scenario that reaches it, or
 * counted as not analysed; the others' captures wait until it watches. A state is analysed once,
 * however many scenarios reach it at the same time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { existsSync } from 'node:fs';
import { BrowserSession } from '../../harness/browser/session.js';
import { ADVISORY_CHECKS } from '../../harness/checks/advisory.js';
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

/** A browser on `path` for `scenario`, the state it shows as the harness saw it, and the facts and capturer of one run. */
async function onPage(path: string, scenario: string, run = { facts: undefined as RunFacts | undefined }) {
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  run.facts ??= new RunFacts(ConfigSchema.parse({ trace: 'off' }), { agency: origin, emulator: 'http://127.0.0.1:4010', callback: `${origin}/callback` }, folder);
  const session = await BrowserSession.open(browser(), run.facts, scenario, 'main', { trace: 'off', recorded: [] });
  await session.page.goto(`${origin}${path}`);
  const seen = { scenario, journey: 'main', environment: 'production' as const, at: 0, url: `${origin}${path}`, status: 200, shows: ['page:consent' as const], links: [], title: path, text: '' };
  return { session, seen, facts: run.facts };
}

test('a state the lead leaves is captured, axe and both screenshots, by the next scenario that reaches it; if none does, axe counts it as not analysed', async () => {
  const run = { facts: undefined as RunFacts | undefined };
  const lead = await onPage('/without-frame', 'polling-schedule', run);
  const next = await onPage('/without-frame', 'consent', run);
  try {
    const capturer = new Capturer(lead.facts, { axe: true, screenshots: true });
    const axeCheck = ADVISORY_CHECKS.find((check) => check.id === 'a11y.axe')!;
    await capturer.capture(lead.session, lead.seen, { leads: true, deferred: true });
    expect(axeCheck.evaluate(lead.facts)).toMatchObject({ status: 'inconclusive', reason: expect.stringContaining('polling-schedule left it to the scenarios after it, and none reached it') });
    await capturer.capture(next.session, next.seen);
    const [capture] = [...lead.facts.captures.values()];
    expect(capture!.axe).toBeDefined();
    expect([existsSync(capture!.screenshots.mobile!), existsSync(capture!.screenshots.desktop!)]).toEqual([true, true]);
    expect(axeCheck.evaluate(lead.facts)!.status).not.toBe('inconclusive');
  } finally {
    await Promise.all([lead.session.close(), next.session.close()]);
  }
}, 60_000);

test("another scenario's capture waits until the lead watches; the lead's own does not", async () => {
  const run = { facts: undefined as RunFacts | undefined };
  const preview = await onPage('/without-frame', 'sandbox-previews', run);
  const lead = await onPage('/with-frame', 'polling-schedule', run);
  try {
    const capturer = new Capturer(preview.facts, { axe: true, screenshots: false });
    let watches!: () => void;
    capturer.leadUntil(new Promise<void>((resolve) => (watches = resolve)));
    const waiting = capturer.capture(preview.session, { ...preview.seen, shows: ['state:won'] });
    await capturer.capture(lead.session, lead.seen, { leads: true });
    const analysed = () => [...preview.facts.captures.values()].filter((capture) => capture.axe).map((capture) => capture.key);
    expect(analysed()).toEqual(['production:consent']);
    watches();
    await waiting;
    expect(analysed()).toEqual(['production:won', 'production:consent']);
  } finally {
    await Promise.all([preview.session.close(), lead.session.close()]);
  }
}, 60_000);

test('a state two scenarios reach at once is analysed once: the second leaves it to the capture under way', async () => {
  const run = { facts: undefined as RunFacts | undefined };
  const visits = [await onPage('/without-frame', 'consent', run), await onPage('/without-frame', 'terms-change', run)];
  try {
    const capturer = new Capturer(run.facts!, { axe: true, screenshots: false });
    await Promise.all(visits.map((visit) => capturer.capture(visit.session, visit.seen)));
    const injected = await Promise.all(visits.map((visit) => visit.session.page.evaluate(() => 'axe' in globalThis)));
    expect(injected).toEqual([true, false]);
    expect([...run.facts!.captures.values()].map((capture) => [capture.scenario, Boolean(capture.axe)])).toEqual([['consent', true]]);
  } finally {
    await Promise.all(visits.map((visit) => visit.session.close()));
  }
}, 60_000);
