/**
 * What the callback URL /rueckruf answers: no page or JSON answer of the app cached, the session
 * cookie and its rotation on a successful exchange, and a log that holds no secret. @see spec §1
 * rules, §5 rule 4
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, test } from 'vitest';
import { SpaClient } from './spa-client.js';
import { type SpaWorld, callbackUrl, enter, exchanges, issuedSessionTokens, spaRule, spaWorld, toConsent } from './world.js';

describe('callback responses', () => {
  /** Every kind: landing, start, return, refusal. */
  async function callbackHops(w: SpaWorld) {
    const browser = new SpaClient();
    await browser.open(w.agency.callbackUrl);
    await browser.open(`${w.agency.callbackUrl}?service_code=sc_x&state=${'x'.repeat(43)}`);
    await toConsent(w, browser);
    return browser.hops.filter((hop) => hop.url.startsWith(w.agency.callbackUrl));
  }
  const distinct = (hops: Array<{ headers: Headers }>, name: string) => [...new Set(hops.map((hop) => hop.headers.get(name)))];

  spaRule({
    defect: 'callback-shell-cacheable',
    title: 'all carry Cache-Control: no-store and Referrer-Policy: same-origin',
    observe: async (w) => {
      const hops = await callbackHops(w);
      return { statuses: hops.map((hop) => hop.status), cacheControl: distinct(hops, 'cache-control'), referrerPolicy: distinct(hops, 'referrer-policy') };
    },
    holds: { statuses: [200, 400, 303, 303], cacheControl: ['no-store'], referrerPolicy: ['same-origin'] },
    broken: { cacheControl: ['public, max-age=600', 'no-store'], referrerPolicy: ['same-origin'] },
  });

  test('and every JSON answer and page of the app are not cached either', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    await toConsent(w, browser);
    await browser.api('POST', w.at('/api/teilnahme'), {}, { 'x-csrf-token': 'forged' });
    await browser.open(w.at('/nirgends'));
    await browser.api('GET', w.at('/api/nirgends'));
    const app = browser.hops.filter((hop) => hop.url.startsWith(w.agency.url) && !hop.url.startsWith(w.agency.callbackUrl));
    expect(app.map((hop) => `${hop.status} ${new URL(hop.url).pathname}`)).toEqual(['200 /teilnahme', '200 /api/zustand', '403 /api/teilnahme', '404 /nirgends', '404 /api/nirgends']);
    expect([distinct(app, 'cache-control'), distinct(app, 'referrer-policy')]).toEqual([['no-store'], ['same-origin']]);
  });

  spaRule({
    defect: 'third-party-font',
    title: 'load nothing from another origin, and the Content-Security-Policy allows only this one',
    observe: async (w) => {
      const page = await new SpaClient().open(w.agency.callbackUrl);
      const policy = page.headers.get('content-security-policy') ?? '';
      return { external: [...page.text.matchAll(/(?:src|href)="(https?:[^"]+)"/g)].map((match) => match[1]), scripts: /script-src ([^;]+)/.exec(policy)?.[1], styles: /style-src ([^;]+)/.exec(policy)?.[1] };
    },
    holds: { external: [], scripts: "'self'", styles: "'self'" },
    broken: { external: ['https://fonts.example.net/css2?family=Inter'], scripts: "'self'", styles: "'self' https://fonts.example.net" },
  });
});

describe('the session cookie', () => {
  spaRule({
    defect: 'session-cookie-script-readable',
    title: 'is HttpOnly and SameSite=Lax, and holds a random id only',
    observe: async (w) => {
      const browser = new SpaClient();
      await toConsent(w, browser);
      const lines = browser.setCookies.filter((line) => line.startsWith('spa_sitzung='));
      return { httpOnly: lines.map((line) => /; HttpOnly/.test(line)), sameSite: lines.map((line) => /; SameSite=Lax/.test(line)), value: browser.cookie('spa_sitzung') };
    },
    holds: { httpOnly: [true, true], sameSite: [true, true], value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    broken: { httpOnly: [false, false], sameSite: [true, true] },
  });

  test('is Secure except on plain-http loopback', async () => {
    const w = await spaWorld();
    const { port } = new URL(w.agency.url);
    const cookieFor = (host: string) =>
      new Promise<string>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path: '/api/zustand', headers: { host } }, (res) => {
          res.resume();
          resolve(String(res.headers['set-cookie']));
        }).on('error', reject).end();
      });
    expect(await cookieFor('agency.example')).toMatch(/; Secure/);
    expect(await cookieFor(`127.0.0.1:${port}`)).not.toMatch(/Secure/);
  });

  test('gets a new value and CSRF token when the exchange succeeds; the old value is worth nothing', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    const url = await callbackUrl(w, browser);
    const before = browser.cookie('spa_sitzung')!;
    const planted = new SpaClient();
    const plantedCsrf = (await planted.api('GET', w.at('/api/zustand'), undefined, { cookie: `spa_sitzung=${before}` })).data.csrf;
    await browser.open(url);
    const after = await browser.api('GET', w.at('/api/zustand'));
    expect([browser.cookie('spa_sitzung') === before, after.data.csrf === plantedCsrf, after.data.ansicht]).toEqual([false, false, 'einwilligung']);
    const old = await new SpaClient().api('GET', w.at('/api/zustand'), undefined, { cookie: `spa_sitzung=${before}` });
    expect(old.data.ansicht).toBe('keine');
  });
});

describe('the log', () => {
  spaRule({
    defect: 'logs-raw-urls',
    title: 'never holds service_request, service_code or state, only the names of the query parameters',
    observe: async (w) => {
      const browser = new SpaClient();
      await toConsent(w, browser);
      const routed = browser.hops.filter((hop) => hop.url.startsWith(`${w.agency.callbackUrl}?`)).map((hop) => new URL(hop.url).searchParams);
      const values = routed.flatMap((params) => ['service_request', 'service_code', 'state'].flatMap((name) => params.get(name) ?? []));
      const log = w.logLines.join('');
      return { values: values.length, leaked: values.filter((value) => log.includes(value)).length, names: log.includes('"query":["service_code","state"]') };
    },
    holds: { values: 3, leaked: 0, names: true },
    broken: { values: 3, leaked: 3, names: false },
  });

  test('never holds a key, a session token or a verifier; a refused callback is logged without its values', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    await toConsent(w, browser);
    await enter(w, browser);
    await new SpaClient().open(`${w.agency.callbackUrl}?service_code=sc_secret_code&state=${'q'.repeat(43)}`);
    const secrets = [w.env.sandbox_key!, w.env.production_key!, ...issuedSessionTokens(w), String(exchanges(w)[0]!.body!.code_verifier), 'sc_secret_code', 'q'.repeat(43)];
    const log = w.logLines.join('');
    expect(log).toContain('"refused":"unbekannter_ablauf"');
    expect(secrets.filter((secret) => log.includes(secret))).toEqual([]);
  });
});
