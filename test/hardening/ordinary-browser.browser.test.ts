/**
 * Issue 41, item 6: the harness's browser is one consistent, ordinary browser, so an agency cannot
 * behave well only under test: `navigator.webdriver` is false, and the user agent, the client hints
 * a page's server receives (`Sec-CH-UA`) and those its script reads (`navigator.userAgentData`)
 * name the same Chromium of the same version on the same phone, never HeadlessChrome. Its pages run
 * in Chromium's sandbox wherever the operating system allows one, and the browser says why when not.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sandboxOff } from '../../harness/browser/chromium.js';
import { BrowserSession } from '../../harness/browser/session.js';
import { ConfigSchema } from '../../harness/config.js';
import { RunFacts } from '../../harness/run/facts.js';
import { useChromium } from '../support/chromium.js';

const browser = useChromium();
let server: Server;
let url: string;
const heard: Array<Record<string, string | string[] | undefined>> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    heard.push(req.headers);
    res.setHeader('content-type', 'text/html');
    res.setHeader('accept-ch', 'Sec-CH-UA-Full-Version-List, Sec-CH-UA-Model');
    res.end('<!doctype html><title>agency</title><p>hello</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('a page sees an ordinary phone browser: no webdriver, and user agent and client hints that agree, in its headers and its script', async () => {
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: new URL(url).origin, emulator: 'http://127.0.0.1:1', callback: `${url}callback` }, '/tmp');
  const session = await BrowserSession.open(browser(), facts, 'ordinary', 'main', { trace: 'off', recorded: [] });
  try {
    await session.goto(url);
    const seen = await session.page.evaluate(() => {
      const nav = (globalThis as unknown as { navigator: { webdriver: boolean; userAgent: string; userAgentData?: { brands: Array<{ brand: string; version: string }>; mobile: boolean; platform: string } } }).navigator;
      return { webdriver: nav.webdriver, userAgent: nav.userAgent, brands: nav.userAgentData?.brands ?? [], mobile: nav.userAgentData?.mobile, platform: nav.userAgentData?.platform };
    });
    const major = browser().version().split('.')[0];
    expect(seen.webdriver).toBe(false);
    expect(seen.userAgent).toContain(`Android`);
    expect(seen.userAgent).toContain(` Chrome/${major}.`);
    expect(seen.brands.map(({ brand, version }) => `${brand} ${version}`)).toContain(`Chromium ${major}`);
    expect([seen.mobile, seen.platform]).toEqual([true, 'Android']);
    const headers = heard.at(-1)!;
    expect(headers['user-agent']).toBe(seen.userAgent);
    expect(String(headers['sec-ch-ua'])).toContain(`"Chromium";v="${major}"`);
    expect(JSON.stringify([headers, seen])).not.toMatch(/headless/i);
    expect(headers['sec-ch-ua-mobile']).toBe('?1');
    expect(headers['sec-ch-ua-platform']).toBe('"Android"');
  } finally {
    await session.close();
  }
});

test("the agency's pages run in Chromium's sandbox unless the system forbids it, and then the browser says why", () => {
  const off = sandboxOff(browser());
  if (process.getuid?.() === 0) expect(off).toMatch(/without Chromium's sandbox: the harness runs as root/);
  else expect(off === undefined || /could not make its sandbox/.test(off)).toBe(true);
});
