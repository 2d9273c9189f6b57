/**
 * What each answer of the agency's entry endpoint POST /api/teilnahme shows: each answer of spec
 * §4.2 its own state, a 429 held until Retry-After, and what the browser gets. @see spec §4.2, §4.3
 */
import { describe, expect, test } from 'vitest';
import { setRouting } from '../../emulator/use-cases/console/routing.js';
import { SpaClient } from './spa-client.js';
import { enter, entries, exchanges, issuedSessionTokens, preview, spaRule, spaWorld, toConsent } from './world.js';

const tooMany = (seconds: number) => ({ status: 429, headers: { 'retry-after': String(seconds) }, body: { error: 'rate_limited', message: 'Too many requests.' } });

describe('each answer of §4.2 is its own state', () => {
  test('won: the prize, its delivered code, the redemption link and the Rewards page', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    await toConsent(w, browser);
    const { data } = await enter(w, browser);
    expect(data).toMatchObject({ ansicht: 'ergebnis', umgebung: 'produktion', ergebnis: { zustand: 'gewonnen', preis: '5 € voucher', codes: [expect.stringMatching(/^AM-/)], einloesen_url: 'https://shop.alpenmilch.example/redeem', praemien_url: `${w.spy.url}/rewards` } });
    expect(data.abfrage).toBeUndefined();
  });

  test('lost, ineligible: their own states', async () => {
    const w = await spaWorld();
    const lost = await preview(w, new SpaClient(), 'lost');
    const ineligible = await preview(w, new SpaClient(), 'ineligible');
    expect([lost.data.ergebnis.zustand, lost.data.umgebung, ineligible.data.ergebnis.zustand]).toEqual(['verloren', 'sandbox', 'nicht_berechtigt']);
  });

  spaRule({
    defect: 'already-entered-as-error',
    title: 'already entered (409): its own state',
    observe: async (w) => ({ state: (await preview(w, new SpaClient(), 'already_entered')).data.ergebnis.zustand, status: entries(w).at(-1)!.status }),
    holds: { state: 'bereits_teilgenommen', status: 409 },
    broken: { state: 'fehler', status: 409 },
  });

  spaRule({
    defect: 'failed-shown-as-lost',
    title: 'failed: the customer still won, the delivery is delayed, nothing is entered again',
    observe: async (w) => {
      const { data } = await preview(w, new SpaClient(), 'failed');
      return { state: data.ergebnis.zustand, prize: data.ergebnis.preis, entries: entries(w).length };
    },
    holds: { state: 'fehlgeschlagen', prize: '5 € voucher', entries: 1 },
    broken: { state: 'verloren', entries: 1 },
  });

  spaRule({
    defect: 'unavailable-without-rewards',
    title: 'unavailable (409 or 410): its own state with the route back to the Rewards page',
    observe: async (w) => {
      const browser = new SpaClient();
      const other = new SpaClient();
      await toConsent(w, browser);
      await toConsent(w, other, { pack: 1 });
      setRouting(w.world, true);
      const paused = await enter(w, browser);
      w.spy.fail('POST', '/session/entry', { status: 410, body: { error: 'unavailable', message: 'The campaign has ended.' } });
      const ended = await enter(w, other);
      return { statuses: entries(w).map((call) => call.status), states: [paused.data.ergebnis.zustand, ended.data.ergebnis.zustand], rewards: [paused.data.ergebnis.praemien_url, ended.data.ergebnis.praemien_url] };
    },
    holds: { statuses: [409, 410], states: ['nicht_verfuegbar', 'nicht_verfuegbar'], rewards: [expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/rewards$/), expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/rewards$/)] },
    broken: { states: ['nicht_verfuegbar', 'nicht_verfuegbar'], rewards: [null, null] },
  });

  test('invalid session (401): asks to rescan; sent once, with its own session only', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    await toConsent(w, browser);
    await toConsent(w, new SpaClient(), { email: 'jonas.bauer@example.test', pack: 1 });
    w.advance(31 * 60_000);
    const { data } = await enter(w, browser);
    expect([data.ergebnis.zustand, entries(w).map((call) => call.status)]).toEqual(['sitzung_ungueltig', [401]]);
    expect(entries(w)[0]!.session).toBe(issuedSessionTokens(w)[0]);
  });

  test('an answer outside the table (a 500) is never a guessed result: the form is shown again to send once more', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    await toConsent(w, browser);
    w.spy.fail('POST', '/session/entry', { status: 500, body: { error: 'internal' } });
    const failed = await enter(w, browser);
    const again = await enter(w, browser);
    expect([failed.data.ansicht, failed.data.einwilligung.hinweis, again.data.ergebnis.zustand]).toEqual(['einwilligung', 'fehler', 'gewonnen']);
  });
});

describe('rate limited (429)', () => {
  spaRule({
    defect: 'retry-after-ignored',
    title: 'shows the wait page for Retry-After; the retry is refused without calling the service until then',
    observe: async (w) => {
      const browser = new SpaClient();
      await toConsent(w, browser);
      w.spy.fail('POST', '/session/entry', tooMany(30), 2);
      const limited = await enter(w, browser);
      w.advanceAgency(2_000);
      const early = await browser.api('POST', w.at('/api/teilnahme/erneut'));
      return { view: [limited.data.ansicht, limited.data.ergebnis.zustand, limited.data.warten.sekunden], early: early.status, calls: entries(w).length };
    },
    holds: { view: ['warten', 'zu_viele_anfragen', 30], early: 429, calls: 1 },
    broken: { view: ['warten', 'zu_viele_anfragen', 1], early: 200, calls: 2 },
  });

  test('sends the held entry once Retry-After has passed, and says how long is left until then', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    await toConsent(w, browser);
    w.spy.fail('POST', '/session/entry', tooMany(30));
    await enter(w, browser);
    w.advanceAgency(29_000);
    expect((await browser.api('GET', w.at('/api/zustand'))).data.warten).toEqual({ sekunden: 1 });
    const early = await browser.api('POST', w.at('/api/teilnahme/erneut'));
    expect([early.status, early.headers.get('retry-after'), early.data]).toEqual([429, '1', { fehler: 'zu_frueh', warte_s: 1 }]);
    w.advanceAgency(1_000);
    const retried = await browser.api('POST', w.at('/api/teilnahme/erneut'));
    expect([retried.data.ergebnis.zustand, entries(w).map((call) => call.status)]).toEqual(['gewonnen', [429, 200]]);
    expect(entries(w)[1]!.body).toEqual(entries(w)[0]!.body);
    expect((await browser.api('POST', w.at('/api/teilnahme/erneut'))).status).toBe(409);
  });
});

describe('what the browser gets', () => {
  spaRule({
    defect: 'session-token-in-api',
    title: 'never holds the session token',
    observe: async (w) => {
      const browser = new SpaClient();
      await toConsent(w, browser);
      await enter(w, browser);
      const pending = new SpaClient();
      await preview(w, pending, 'pending');
      const seen = browser.everything() + pending.everything();
      return { leaked: issuedSessionTokens(w).filter((token) => seen.includes(token)).length };
    },
    holds: { leaked: 0 },
    broken: { leaked: 2 },
  });

  spaRule({
    defect: 'key-in-api',
    title: 'never holds an agency key, a verifier or a state',
    observe: async (w) => {
      const browser = new SpaClient();
      await browser.api('GET', w.at('/api/kampagne'));
      const url = await toConsent(w, browser).then(() => browser.hops.find((hop) => hop.url.includes('service_code='))!.url);
      await enter(w, browser);
      const state = new URL(url).searchParams.get('state')!;
      const verifier = String(exchanges(w)[0]!.body!.code_verifier);
      const json = browser.hops.filter((hop) => hop.url.includes('/api/')).map((hop) => hop.text).join('\n');
      return { keys: [w.env.sandbox_key!, w.env.production_key!].filter((key) => browser.everything().includes(key)).length, stateInJson: json.includes(state), verifier: browser.everything().includes(verifier) };
    },
    holds: { keys: 0, stateInJson: false, verifier: false },
    broken: { keys: 1, stateInJson: false, verifier: false },
  });
});
