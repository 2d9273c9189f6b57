/**
 * The browser looks like one ordinary phone to the agency (issue 48 item 1): the headers a server
 * reads and what a page script reads tell the same story, in the journey's language and time zone.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BrowserSession } from '../../harness/browser/session.js';
import { ConfigSchema } from '../../harness/config.js';
import { RunFacts } from '../../harness/run/facts.js';
import { useChromium } from '../support/chromium.js';

const browser = useChromium();
let heard: IncomingHttpHeaders = {};
const agency = createServer((req, res) => {
  heard = req.headers;
  res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Promocja</title><p>Cześć</p>');
});
beforeAll(() => new Promise<void>((resolve) => agency.listen(0, '127.0.0.1', resolve)));
afterAll(() => new Promise((resolve) => agency.close(resolve)));

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
  const origin = `http://127.0.0.1:${(agency.address() as AddressInfo).port}`;
  const facts = new RunFacts(ConfigSchema.parse({ trace: 'off' }), { agency: origin, emulator: 'http://127.0.0.1:1', callback: `${origin}/callback` }, '/tmp');
  const session = await BrowserSession.open(browser(), facts, 'device', 'main', { trace: 'off', recorded: [], country: 'PL' });
  try {
    await session.goto(`${origin}/`);
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
