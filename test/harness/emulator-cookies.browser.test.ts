/**
 * The harness's own calls to the emulator carry the emulator's cookies and none the agency set
 * (issue 48 item 2): on one machine both share a host name, so the browser holds the agency's
 * cookies for the emulator too, and one with a byte above U+00FF had those calls refused.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BrowserSession } from '../../harness/run/browser-session.js';
import { ConfigSchema } from '../../harness/config.js';
import { RunFacts } from '../../harness/run/facts.js';
import { useChromium } from '../support/chromium.js';

const browser = useChromium();
const heard: Array<string | undefined> = [];
const emulator = createServer((req: IncomingMessage, res: ServerResponse) => {
  if (req.url === '/sign-in') return res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'collector=c1; Path=/; HttpOnly; SameSite=Lax' }).end('<title>Sign in</title>');
  heard.push(req.headers.cookie);
  res.writeHead(303, { location: '/back' }).end();
});
// The agency sets its own cookies, one of them with a euro sign, from a script as any page can.
const agency = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'agency_sid=a1; Path=/' }).end('<title>Agentur</title><script>document.cookie = "pref=5€; path=/"</script>'));
const origin = (server: typeof agency) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
beforeAll(() => Promise.all([emulator, agency].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)))));
afterAll(() => Promise.all([emulator, agency].map((server) => new Promise((resolve) => server.close(resolve)))));

test('a scan and a held Continue carry the emulator\'s cookie alone, with the agency\'s (one of them not Latin-1) in the same browser', { timeout: 60_000 }, async () => {
  const facts = new RunFacts(ConfigSchema.parse({ trace: 'off' }), { agency: origin(agency), emulator: origin(emulator), callback: `${origin(agency)}/callback` }, '/tmp');
  const session = await BrowserSession.open(browser(), facts, 'cookies', 'main', { trace: 'off', recorded: [] });
  try {
    await session.goto(`${origin(emulator)}/sign-in`);
    await session.goto(`${origin(agency)}/`);
    // The control: the browser holds the agency's cookies for the emulator's host, and the browser's own request API sends them.
    expect((await session.context.cookies(origin(emulator))).map((cookie) => cookie.name).sort()).toEqual(['agency_sid', 'collector', 'pref']);
    const sentByTheBrowser = await session.context.request.get(`${origin(emulator)}/q/P1`, { maxRedirects: 0 }).then(() => heard.pop(), (error: Error) => error.message);
    // What the harness's scan used to be: refused before it leaves (Playwright will not send the euro sign).
    expect(sentByTheBrowser).toMatch(/Invalid character/);

    heard.length = 0;
    expect(await session.toEmulator(`${origin(emulator)}/q/P1`)).toEqual({ status: 303, location: '/back' });
    expect(await session.toEmulator(`${origin(emulator)}/authorize`, { request: 'r1' })).toEqual({ status: 303, location: '/back' });
    expect(heard).toEqual(['collector=c1', 'collector=c1']);
  } finally {
    await session.close();
  }
});
