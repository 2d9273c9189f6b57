/**
 * Issue 41, item 6: the harness's browser is one consistent, ordinary browser, so an agency cannot
 * behave well only under test: `navigator.webdriver` is false, and the user agent, the client hints
 * a page's server receives (`Sec-CH-UA`) and those its script reads (`navigator.userAgentData`)
 * name the same Chromium of the same version on the same phone, never HeadlessChrome. Its pages run
 * in Chromium's sandbox wherever the operating system allows one, and the browser says why when not.
 * Issue 48, item 1: the rest of the device agrees with it, in the journey's language and time zone.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sandboxOff } from '../../harness/browser/chromium.js';
import { BrowserSession } from '../../harness/run/browser-session.js';
import { ConfigSchema } from '../../harness/config.js';
import { RunFacts } from '../../harness/run/facts.js';
import { useChromium } from '../support/chromium.js';

const browser = useChromium();
let server: Server;
let url: string;
const headersHeard: Array<Record<string, string | string[] | undefined>> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    headersHeard.push(req.headers);
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
    const headers = headersHeard.at(-1)!;
    expect(headers['user-agent']).toBe(seen.userAgent);
    expect(String(headers['sec-ch-ua'])).toContain(`"Chromium";v="${major}"`);
    expect(JSON.stringify([headers, seen])).not.toMatch(/headless/i);
    expect(headers['sec-ch-ua-mobile']).toBe('?1');
    expect(headers['sec-ch-ua-platform']).toBe('"Android"');
  } finally {
    await session.close();
  }
});

/** What a fingerprinting script reads of the device. */
function device() {
  const scope = globalThis as unknown as Record<string, any>;
  const { navigator: nav, document: doc } = scope;
  const gl = doc.createElement('canvas').getContext('webgl');
  const debug = gl?.getExtension('WEBGL_debug_renderer_info');
  return Promise.all([
    nav.userAgentData.getHighEntropyValues(['formFactors', 'model', 'platformVersion', 'fullVersionList']),
    nav.permissions.query({ name: 'notifications' }).then((status: { state: string }) => status.state),
  ]).then(([hints, notificationsQuery]) => ({
    language: nav.language, languages: nav.languages, timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, offsetMinutes: new Date('2026-01-15T12:00:00Z').getTimezoneOffset(),
    brands: nav.userAgentData.brands.map((brand: { brand: string }) => brand.brand), mobile: nav.userAgentData.mobile, platform: nav.userAgentData.platform,
    formFactors: hints.formFactors, model: hints.model, chrome: typeof scope.chrome, webdriver: nav.webdriver,
    webgl: debug ? `${gl.getParameter(debug.UNMASKED_VENDOR_WEBGL)} ${gl.getParameter(debug.UNMASKED_RENDERER_WEBGL)}` : 'none',
    cores: nav.hardwareConcurrency, memory: nav.deviceMemory, dpr: scope.devicePixelRatio, screen: [scope.screen.width, scope.screen.height], touch: nav.maxTouchPoints > 0,
    notification: scope.Notification?.permission, notificationsQuery,
  }));
}

test('a Polish journey\'s phone: Polish first in its headers and its page, Warsaw\'s time, Chrome\'s client hints, a phone\'s GPU, cores, memory and screen, notifications not yet asked for', { timeout: 60_000 }, async () => {
  const facts = new RunFacts(ConfigSchema.parse({ trace: 'off' }), { agency: new URL(url).origin, emulator: 'http://127.0.0.1:1', callback: `${url}callback` }, '/tmp');
  const session = await BrowserSession.open(browser(), facts, 'device', 'main', { trace: 'off', recorded: [], country: 'PL' });
  try {
    await session.goto(url);
    const heard = headersHeard.at(-1)!;
    expect(heard['accept-language']).toBe('pl-PL,pl;q=0.9,en-GB;q=0.8,en;q=0.7');
    expect(heard['sec-ch-ua']).toContain('"Google Chrome"');
    expect([heard['sec-ch-ua-mobile'], heard['sec-ch-ua-platform']]).toEqual(['?1', '"Android"']);
    expect(heard['user-agent']).toMatch(/^Mozilla\/5\.0 \(Linux; Android 10; K\) .* Chrome\/\d+\.0\.0\.0 Mobile Safari\/537\.36$/);
    const seen = await session.page.evaluate(device);
    expect(seen).toMatchObject({
      language: 'pl-PL', languages: ['pl-PL', 'pl', 'en-GB', 'en'], timezone: 'Europe/Warsaw', offsetMinutes: -60,
      mobile: true, platform: 'Android', formFactors: ['Mobile'], model: 'Pixel 7', chrome: 'object', webdriver: false,
      cores: 8, memory: 8, dpr: 2.625, screen: [412, 915], touch: true, notificationsQuery: 'prompt',
    });
    expect(seen.brands).toContain('Google Chrome');
    // The phone's GPU, not the software renderer's name; the two ways to ask about notifications agree: not yet asked for.
    expect(seen.webgl).toBe('ARM Mali-G710 MC10');
    expect(seen.notification).toBe('default');
  } finally {
    await session.close();
  }
});

test("the agency's pages run in Chromium's sandbox unless the system forbids it, and then the browser says why", () => {
  const off = sandboxOff(browser());
  if (process.getuid?.() === 0) expect(off).toMatch(/without Chromium's sandbox: the harness runs as root/);
  else expect(off === undefined || /could not make its sandbox/.test(off)).toBe(true);
});
