/** The callback page rules: headers, cookie, clean URL, no third-party scripts, redacted logs. @see spec §4.3 */
import { request as httpRequest } from 'node:http';
import { describe, expect, test } from 'vitest';
import { type Hop, TestBrowser, marker } from './test-browser.js';
import { type AgencyWorld, agencyWorld, callbackUrl, enter, issuedSessionTokens, rule, toConsent } from './world.js';

/** Every kind of callback response: landing, journey start, return, rejection. */
async function callbackResponses(w: AgencyWorld): Promise<Hop[]> {
  const browser = new TestBrowser();
  await browser.open(w.agency.callbackUrl);
  await browser.open(`${w.agency.callbackUrl}?service_code=sc_x&state=${'x'.repeat(43)}`);
  await enter(browser, await toConsent(w, browser));
  return browser.hops.filter((hop) => hop.url.startsWith(w.agency.callbackUrl));
}

const distinct = (hops: Hop[], header: string) => [...new Set(hops.map((hop) => hop.headers.get(header)))];

describe('callback responses', () => {
  rule({
    defect: 'callback-cacheable',
    title: 'all carry Cache-Control: no-store',
    observe: async (w) => {
      const hops = await callbackResponses(w);
      return { kinds: hops.map((hop) => hop.status), cacheControl: distinct(hops, 'cache-control') };
    },
    holds: { kinds: [200, 400, 303, 303], cacheControl: ['no-store'] },
    broken: { cacheControl: ['private, max-age=300'] },
  });

  rule({
    defect: 'referrer-leaks',
    title: 'all carry Referrer-Policy: same-origin',
    observe: async (w) => ({ referrerPolicy: distinct(await callbackResponses(w), 'referrer-policy') }),
    holds: { referrerPolicy: ['same-origin'] },
    broken: { referrerPolicy: ['unsafe-url'] },
  });

  test('and every other page of the agency are not cached and send no referrer elsewhere', async () => {
    const w = await agencyWorld();
    const browser = new TestBrowser();
    await browser.open(`${w.agency.url}/preview/pending`);
    await browser.request('POST', `${w.agency.url}/entry`, { csrf: 'forged' });
    await browser.open(`${w.agency.url}/nowhere`);
    const pages = browser.hops.filter((hop) => hop.url.startsWith(w.agency.url));
    expect(pages.map((hop) => hop.status)).toEqual([303, 200, 403, 404]);
    expect([distinct(pages, 'cache-control'), distinct(pages, 'referrer-policy')]).toEqual([['no-store'], ['same-origin']]);
  });

  rule({
    defect: 'no-clean-redirect',
    title: 'redirect at once to a clean URL after the exchange',
    observe: async (w) => {
      const browser = new TestBrowser();
      const url = await callbackUrl(w, browser);
      const returned = await browser.request('GET', url);
      return { status: returned.status, location: returned.headers.get('location') };
    },
    holds: { status: 303, location: '/result' },
    broken: { status: 200, location: null },
  });

  rule({
    defect: 'api-readable-by-any-origin',
    title: "with twoOrigins, the API lets the pages' origin read its answers with the browser's cookies, and no other origin",
    world: { shape: { twoOrigins: true } },
    observe: async (w) => {
      const api = new URL(w.agency.callbackUrl).origin;
      const readers = async (origin: string) => {
        const answer = await fetch(`${api}/result/status`, { headers: { origin } });
        return [answer.headers.get('access-control-allow-origin'), answer.headers.get('access-control-allow-credentials')];
      };
      return { pages: (await readers(w.agency.url))[0] === w.agency.url, other: await readers('https://elsewhere.example') };
    },
    holds: { pages: true, other: [null, null] },
    broken: { pages: true, other: ['https://elsewhere.example', 'true'] },
  });
});

describe('the session cookie', () => {
  rule({
    defect: 'cookie-not-httponly',
    title: 'is HttpOnly and SameSite=Lax, and holds only a random id',
    observe: async (w) => {
      const browser = new TestBrowser();
      await toConsent(w, browser);
      const cookie = browser.cookie('agency_session')!;
      return { httpOnly: cookie.attributes.includes('HttpOnly'), sameSite: cookie.attributes.find((attribute) => attribute.startsWith('SameSite')), value: cookie.value };
    },
    holds: { httpOnly: true, sameSite: 'SameSite=Lax', value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    broken: { httpOnly: false },
  });

  test('is Secure except on loopback', async () => {
    const w = await agencyWorld();
    const cookieFor = (host: string) =>
      new Promise<string>((resolve, reject) => {
        const { port } = new URL(w.agency.url);
        httpRequest({ host: '127.0.0.1', port, path: '/callback?service_request=rt_x', headers: { host } }, (res) => {
          res.resume();
          resolve(String(res.headers['set-cookie']));
        }).on('error', reject).end();
      });
    expect(await cookieFor('agency.example')).toMatch(/; Secure/);
    expect(await cookieFor(`127.0.0.1:${new URL(w.agency.url).port}`)).not.toMatch(/Secure/);
  });

  test('changes value when the exchange succeeds, and the old value is worth nothing', async () => {
    const w = await agencyWorld();
    const browser = new TestBrowser();
    const url = await callbackUrl(w, browser);
    const before = browser.cookie('agency_session')!.value;
    await browser.open(url);
    expect(browser.cookie('agency_session')!.value).not.toBe(before);
    const planted = await fetch(`${w.agency.url}/result`, { headers: { cookie: `agency_session=${before}` }, redirect: 'manual' });
    expect(planted.headers.get('location')).toBe('/callback');
  });
});

describe('pages', () => {
  rule({
    defect: 'third-party-script',
    title: 'load no script from another origin, and the Content-Security-Policy allows none',
    observe: async (w) => {
      const browser = new TestBrowser();
      await browser.open(w.agency.callbackUrl);
      await enter(browser, await toConsent(w, browser, { outcome: 'pending' }));
      const agencyPages = browser.hops.filter((hop) => hop.url.startsWith(w.agency.url) && hop.status === 200);
      return {
        scripts: [...new Set(agencyPages.flatMap((hop) => [...hop.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((match) => new URL(match[1]!, hop.url).href)))],
        scriptSrc: distinct(agencyPages, 'content-security-policy').map((policy) => /script-src ([^;]+)/.exec(policy ?? '')?.[1]),
      };
    },
    holds: { scripts: [expect.stringMatching(/\/poll\.js$/)], scriptSrc: ["'self'"] },
    broken: { scripts: ['https://analytics.example.net/tag.js', expect.stringMatching(/\/poll\.js$/)], scriptSrc: ["'self' https://analytics.example.net"] },
  });
});

describe('the log', () => {
  rule({
    defect: 'logs-query-params',
    title: 'never holds service_request, service_code or state',
    observe: async (w) => {
      const browser = new TestBrowser();
      await toConsent(w, browser);
      const routed = browser.hops.filter((hop) => hop.url.startsWith(`${w.agency.callbackUrl}?`)).map((hop) => new URL(hop.url).searchParams);
      const secrets = routed.flatMap((params) => ['service_request', 'service_code', 'state'].flatMap((name) => params.get(name) ?? []));
      const log = w.logLines.join('');
      return { secrets: secrets.length, leaked: secrets.filter((secret) => log.includes(secret)).length, redacted: log.includes('service_code=[redacted]&state=[redacted]') };
    },
    holds: { secrets: 3, leaked: 0, redacted: true },
    broken: { secrets: 3, leaked: 3, redacted: false },
  });

  test('never holds a key, a session token or a verifier', async () => {
    const w = await agencyWorld();
    const browser = new TestBrowser();
    await enter(browser, await toConsent(w, browser));
    const secrets = [w.env.sandbox_key!, w.env.production_key!, ...issuedSessionTokens(w), String(w.spy.of('POST', '/sessions')[0]!.body!.code_verifier)];
    const log = w.logLines.join('');
    expect(log).toContain('"msg":"session exchanged"');
    expect(secrets.filter((secret) => log.includes(secret))).toEqual([]);
  });

  test('records a rejected callback without its values', async () => {
    const w = await agencyWorld();
    const page = await new TestBrowser().open(`${w.agency.callbackUrl}?service_code=sc_secret_code&state=${'q'.repeat(43)}`);
    expect(marker(page, 'error')).toBe('unsolicited_callback');
    const log = w.logLines.join('');
    expect(log).toContain('"rejected":"unsolicited_callback"');
    expect(log).not.toContain('sc_secret_code');
    expect(log).not.toContain('q'.repeat(43));
  });
});
