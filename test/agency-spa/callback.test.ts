/**
 * The callback URL /rueckruf: landing page, journey start, return; state, PKCE, the cookie, and the
 * callback page rules. @see spec §1 rules, §4.3, §5 rule 4
 */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { describe, expect, test } from 'vitest';
import { SpaClient, bodyMarkers } from './spa-client.js';
import { type SpaWorld, callbackUrl, enter, issuedSessionTokens, scan, spaRule, spaWorld, toConsent } from './world.js';

const STATE = /^[A-Za-z0-9_-]{32,128}$/;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

const exchanges = (w: SpaWorld) => w.spy.of('POST', '/sessions');

function withState(url: string, state: string): string {
  const changed = new URL(url);
  changed.searchParams.set('state', state);
  return changed.href;
}

/** Opens a held callback URL with its state changed in each way, in the browser that started it; then as issued. */
async function tamperings(w: SpaWorld, change: Record<string, (state: string) => string>) {
  const browser = new SpaClient();
  const url = await callbackUrl(w, browser);
  const state = new URL(url).searchParams.get('state')!;
  const seen: Record<string, unknown> = {};
  for (const [name, alter] of Object.entries(change)) {
    const page = await browser.open(withState(url, alter(state)));
    seen[name] = page.status === 400 ? bodyMarkers(page).fehler : `HTTP ${page.status} at ${new URL(page.url).pathname}`;
  }
  return { seen, exchanges: exchanges(w).length };
}

describe('the landing page', () => {
  spaRule({
    defect: 'landing-needs-scan',
    title: 'is the callback URL without service_request: the shell, and the campaign for the script to show',
    observe: async (w) => {
      const browser = new SpaClient();
      const page = await browser.open(w.agency.callbackUrl);
      const campaign = await browser.api('GET', w.at('/api/kampagne'));
      return { status: page.status, markers: bodyMarkers(page), script: page.text.includes('<script src="/app.js" defer></script>'), campaign: campaign.data };
    },
    holds: {
      status: 200, markers: { ansicht: 'laden' }, script: true,
      campaign: { name: 'Spring Instant Win', aufruf: 'Scan a participating pack to play', preise: ['5 € voucher', 'Concert tickets for two', 'Alpine picnic set', 'Weekend in the Alps'] },
    },
    broken: { status: 400, markers: { ansicht: 'fehler', fehler: 'ungueltiger_link' } },
  });
});

describe('the start of a journey', () => {
  test('sends the browser to authorize with a fresh state and the S256 challenge of the verifier it exchanges later', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    const url = await callbackUrl(w, browser);
    const begun = browser.hops.find((hop) => hop.url.startsWith(`${w.agency.callbackUrl}?service_request=`))!;
    const query = Object.fromEntries(new URL(begun.headers.get('location')!).searchParams);
    expect([begun.status, Object.keys(query).sort()]).toEqual([303, ['code_challenge', 'code_challenge_method', 'request_token', 'state']]);
    expect(query).toMatchObject({ code_challenge_method: 'S256', state: expect.stringMatching(STATE) });
    expect((await browser.open(url)).url).toBe(w.at('/teilnahme'));
    const verifiers = exchanges(w).map((call) => call.body!.code_verifier as string);
    expect(verifiers).toEqual([expect.stringMatching(VERIFIER)]);
    expect(createHash('sha256').update(verifiers[0]!).digest('base64url')).toBe(query.code_challenge);
  });

  test('ignores a state the browser supplies', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    const routed = await scan(w, browser);
    const serviceRequest = browser.hops.find((hop) => hop.url.startsWith(`${w.agency.callbackUrl}?service_request=`))!.url;
    const supplied = 'b'.repeat(43);
    const begun = await browser.request('GET', `${serviceRequest}&state=${supplied}`);
    const state = new URL(begun.headers.get('location')!).searchParams.get('state');
    expect([begun.status, state === supplied, state === new URL(routed.url).searchParams.get('state')]).toEqual([303, false, false]);
  });

  spaRule({
    defect: 'challenge-plain',
    title: 'sends code_challenge_method=S256, never the verifier',
    observe: async (w) => {
      const query = new URL((await scan(w, new SpaClient())).url).searchParams;
      return { method: query.get('code_challenge_method'), challenge: query.get('code_challenge') };
    },
    holds: { method: 'S256', challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    broken: { method: 'plain', challenge: expect.stringMatching(/^[A-Za-z0-9_-]{64}$/) },
  });
});

describe('the return', () => {
  spaRule({
    defect: 'callback-answers-in-place',
    title: 'redirects at once to the clean URL /teilnahme after the exchange',
    observe: async (w) => {
      const browser = new SpaClient();
      const returned = await browser.request('GET', await callbackUrl(w, browser));
      return { status: returned.status, location: returned.headers.get('location'), exchanged: exchanges(w).map((call) => call.status) };
    },
    holds: { status: 303, location: '/teilnahme', exchanged: [201] },
    broken: { status: 200, location: null, exchanged: [201] },
  });

  spaRule({
    defect: 'state-prefix-compare',
    title: 'refuses a state that differs anywhere: last character, truncated, extended, empty',
    observe: (w) =>
      tamperings(w, {
        last: (state) => state.slice(0, -1) + (state.endsWith('A') ? 'B' : 'A'),
        truncated: (state) => state.slice(0, 20),
        extended: (state) => `${state}A`,
        empty: () => '',
      }),
    holds: { seen: { last: 'state_abweichung', truncated: 'state_abweichung', extended: 'state_abweichung', empty: 'ungueltiger_link' }, exchanges: 0 },
    broken: { seen: { last: 'state_abweichung', truncated: 'HTTP 200 at /teilnahme' }, exchanges: 1 },
  });

  spaRule({
    defect: 'state-case-folded',
    title: 'refuses a state whose letters changed case',
    observe: (w) => tamperings(w, { swapped: (state) => state.replace(/[a-z]/gi, (char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())) }),
    holds: { seen: { swapped: 'state_abweichung' }, exchanges: 0 },
    broken: { seen: { swapped: 'HTTP 200 at /teilnahme' }, exchanges: 1 },
  });

  test('refuses an unsolicited callback (no journey in this browser), without calling the service', async () => {
    const w = await spaWorld();
    const page = await new SpaClient().open(`${w.agency.callbackUrl}?service_code=sc_nobody&state=${'u'.repeat(43)}`);
    expect([page.status, bodyMarkers(page), exchanges(w).length]).toEqual([400, { ansicht: 'fehler', fehler: 'unbekannter_ablauf' }, 0]);
  });

  spaRule({
    defect: 'transactions-global',
    title: 'refuses the callback in another browser, without the cookie that started the journey',
    observe: async (w) => {
      const url = await callbackUrl(w, new SpaClient());
      const page = await new SpaClient().open(url);
      return { status: page.status, fehler: bodyMarkers(page).fehler, exchanges: exchanges(w).length };
    },
    holds: { status: 400, fehler: 'unbekannter_ablauf', exchanges: 0 },
    broken: { status: 200, exchanges: 1 },
  });

  spaRule({
    defect: 'transaction-kept',
    title: 'consumes the transaction once: a replayed callback is refused',
    observe: async (w) => {
      const browser = new SpaClient();
      const url = await callbackUrl(w, browser);
      await browser.open(url);
      const again = await browser.open(url);
      return { status: again.status, fehler: bodyMarkers(again).fehler, exchanges: exchanges(w).length };
    },
    holds: { status: 400, fehler: 'unbekannter_ablauf', exchanges: 1 },
    broken: { exchanges: 2 },
  });

  test('refuses a journey that comes back after ten minutes, and a return that also carries service_request', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    const url = await callbackUrl(w, browser);
    const mixed = await browser.open(`${url}&service_request=rt_again`);
    w.advanceAgency(10 * 60_000 + 1);
    const late = await browser.open(url);
    expect([bodyMarkers(mixed).fehler, bodyMarkers(late).fehler, exchanges(w).length]).toEqual(['ungueltiger_link', 'unbekannter_ablauf', 0]);
  });
});

describe('a failed exchange', () => {
  spaRule({
    defect: 'exchange-retried-once',
    title: 'is never retried: the page asks to scan the pack again',
    observe: async (w) => {
      const browser = new SpaClient();
      const url = await callbackUrl(w, browser);
      w.spy.fail('POST', '/sessions', 'drop', 2);
      const page = await browser.open(url);
      return { status: page.status, fehler: bodyMarkers(page).fehler, exchanges: exchanges(w).length, session: (await browser.api('GET', w.at('/api/zustand'))).data.ansicht };
    },
    holds: { status: 502, fehler: 'austausch_fehlgeschlagen', exchanges: 1, session: 'keine' },
    broken: { exchanges: 2 },
  });
});

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
