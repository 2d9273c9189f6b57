/**
 * The agency's entry endpoint POST /api/teilnahme, the consent it takes, the body it sends, and
 * what each answer of spec §4.2 shows. @see spec §2.4, §2.6, §4.1 rule 1, §4.2, §4.3
 */
import { describe, expect, test } from 'vitest';
import { setRouting } from '../../emulator/console/lifecycle.js';
import type { Fixture } from '../../emulator/fixture.js';
import { updatePromotionContent } from '../../emulator/store/promotions.js';
import { SpaClient } from './spa-client.js';
import { ACCEPT, MARCO, type SpaWorld, enter, entries, issuedSessionTokens, preview, spaRule, spaWorld, toConsent } from './world.js';

const tooMany = (seconds: number) => ({ status: 429, headers: { 'retry-after': String(seconds) }, body: { error: 'rate_limited', message: 'Too many requests.' } });

/** Anna's German terms (minimum age 18, version de-2026-03), changed now: the next entry is answered 422. */
function changeGermanTerms(w: SpaWorld, text: string, version: string): void {
  const content = structuredClone(w.world.fixture.promotion);
  content.terms.by_country.DE = { ...content.terms.by_country.DE!, text, version };
  updatePromotionContent(w.world.db, w.env.promotion_id, content);
}

const versionsSent = (w: SpaWorld) => entries(w).map((call) => (call.body?.consent as { terms_version?: string } | undefined)?.terms_version);

describe('the entry endpoint', () => {
  spaRule({
    defect: 'entry-csrf-optional',
    title: 'refuses a request without its CSRF header, with a forged one, and a plain form post; nothing reaches the service',
    observe: async (w) => {
      const browser = new SpaClient();
      await toConsent(w, browser);
      const form = await browser.request('POST', w.at('/api/teilnahme'), { form: { agb: 'ja', alter: 'ja' } });
      const forged = await browser.api('POST', w.at('/api/teilnahme'), ACCEPT, { 'x-csrf-token': 'forged-token' });
      return { form: form.status, forged: forged.status, sent: entries(w).length };
    },
    holds: { form: 403, forged: 403, sent: 0 },
    broken: { form: 200, sent: 1 },
  });

  test('takes JSON only, and answers a malformed body with 400 without sending anything', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    await toConsent(w, browser);
    const text = await browser.request('POST', w.at('/api/teilnahme'), { form: { agb: 'ja' }, headers: { 'x-csrf-token': browser.csrf } });
    const strange = await browser.api('POST', w.at('/api/teilnahme'), { agb: 'yes', land: 'DE' });
    const broken = await browser.request('POST', w.at('/api/teilnahme'), { headers: { 'x-csrf-token': browser.csrf, 'content-type': 'application/json' } });
    expect([text.status, JSON.parse(text.text), strange.status, strange.data, entries(w).length]).toEqual([415, { fehler: 'nur_json' }, 400, { fehler: 'ungueltige_anfrage' }, 0]);
    expect(broken.status).toBe(400);
  });

  spaRule({
    defect: 'entry-unthrottled',
    title: 'allows 10 posts a minute per browser, then 429 with Retry-After',
    observe: async (w) => {
      const browser = new SpaClient();
      await toConsent(w, browser);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 11; attempt += 1) statuses.push((await browser.api('POST', w.at('/api/teilnahme'), { agb: false })).status);
      const last = await browser.api('POST', w.at('/api/teilnahme'), { agb: false });
      return { statuses, retryAfter: last.headers.get('retry-after'), sent: entries(w).length };
    },
    holds: { statuses: [...Array(10).fill(400), 429], retryAfter: '60', sent: 0 },
    broken: { statuses: Array(11).fill(400), retryAfter: null, sent: 0 },
  });

  test('refuses a browser without a journey, and a journey whose entry is already answered', async () => {
    const w = await spaWorld();
    const stranger = new SpaClient();
    await stranger.api('GET', w.at('/api/zustand'));
    const none = await stranger.api('POST', w.at('/api/teilnahme'), ACCEPT);
    const browser = new SpaClient();
    await toConsent(w, browser);
    await enter(w, browser);
    const again = await enter(w, browser);
    expect([none.status, none.data.fehler, again.status, again.data.zustand.ergebnis.zustand, entries(w).length]).toEqual([409, 'keine_offene_teilnahme', 409, 'gewonnen', 1]);
  });
});

describe('consent', () => {
  spaRule({
    defect: 'acceptance-assumed-by-backend',
    title: 'an entry without acceptance of the terms is refused on the server and never sent',
    observe: async (w) => {
      const browser = new SpaClient();
      await toConsent(w, browser);
      const refused = await enter(w, browser, { agb: false, alter: true });
      return { status: refused.status, data: refused.data, sent: entries(w).map((call) => call.body) };
    },
    holds: { status: 400, data: { fehler: 'einwilligung_fehlt', felder: ['agb'] }, sent: [] },
    broken: { status: 200, sent: [{ consent: { accepted: true, age_confirmed: true, terms_version: 'de-2026-03' } }] },
  });

  spaRule({
    defect: 'age-not-asked',
    title: 'asks for the minimum age the terms set, and refuses an entry without it',
    observe: async (w) => {
      const browser = new SpaClient();
      const consent = await toConsent(w, browser);
      const refused = await enter(w, browser, { agb: true, alter: false });
      return { age: consent.data.einwilligung.mindestalter, refused: refused.status, sent: entries(w).map((call) => call.body) };
    },
    holds: { age: 18, refused: 400, sent: [] },
    broken: { age: null, refused: 200, sent: [{ consent: { accepted: true, age_confirmed: true, terms_version: 'de-2026-03' } }] },
  });

  test('without a minimum age, asks for acceptance only and sends no age_confirmed; the newsletter stays with the agency', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    const consent = await toConsent(w, browser, { email: MARCO });
    expect(consent.data.einwilligung).toMatchObject({ pflicht: true, mindestalter: null, version: 'ch-2026-03', hinweis: null });
    expect((await enter(w, browser, { agb: true, newsletter: true })).data.ansicht).toBe('ergebnis');
    expect(entries(w).map((call) => call.body)).toEqual([{ consent: { accepted: true, terms_version: 'ch-2026-03' } }]);
    expect(w.logLines.join('')).toContain('"newsletter":true,"msg":"entry sent"');
  });

  test('shows the terms as the service sent them, every link among them, for the script to render safely', async () => {
    const addLink = (fixture: Fixture) => {
      fixture.promotion.terms.by_country.DE!.links.push({ label: 'Spielregeln', url: 'javascript:alert(1)' });
      return fixture;
    };
    const w = await spaWorld({ fixture: addLink });
    const consent = await toConsent(w, new SpaClient());
    expect(consent.data.einwilligung.links).toEqual([
      { titel: 'Vollständige Teilnahmebedingungen', url: 'https://alpenmilch.example/de/teilnahmebedingungen' },
      { titel: 'Datenschutz', url: 'https://alpenmilch.example/de/datenschutz' },
      { titel: 'Spielregeln', url: 'javascript:alert(1)' },
    ]);
  });
});

describe('the entry body', () => {
  spaRule({
    defect: 'entry-sends-country',
    title: 'carries consent only, with this session\'s terms version: no consumer id, email, pack code or country',
    observe: async (w) => {
      const browser = new SpaClient();
      await toConsent(w, browser);
      const result = await enter(w, browser);
      return { body: entries(w)[0]!.body, state: result.data.ergebnis?.zustand ?? result.data.einwilligung?.hinweis };
    },
    holds: { body: { consent: { accepted: true, age_confirmed: true, terms_version: 'de-2026-03' } }, state: 'gewonnen' },
    broken: { body: { consent: { accepted: true, age_confirmed: true, terms_version: 'de-2026-03' }, country: 'DE' }, state: 'fehler' },
  });
});

describe('after a 422 consent_required', () => {
  spaRule({
    defect: 'no-reread-after-422',
    title: "the session's terms are read again and asked for again, nothing ticked",
    observe: async (w) => {
      const browser = new SpaClient();
      await toConsent(w, browser);
      changeGermanTerms(w, 'Neue Bedingungen.', 'de-2026-04');
      const asked = await enter(w, browser);
      return { asked: asked.data.einwilligung, reads: w.spy.of('GET', '/session').length };
    },
    holds: { asked: { text: 'Neue Bedingungen.', version: 'de-2026-04', hinweis: 'bedingungen_geaendert' }, reads: 1 },
    broken: { asked: { version: 'de-2026-03', hinweis: 'bedingungen_geaendert' }, reads: 0 },
  });

  spaRule({
    defect: 'terms-version-kept',
    title: 'the next entry sends the version read again, exactly',
    observe: async (w) => {
      const browser = new SpaClient();
      await toConsent(w, browser);
      changeGermanTerms(w, 'Neue Bedingungen.', 'de-2026-04');
      const asked = await enter(w, browser);
      const answered = await enter(w, browser);
      return { shown: asked.data.einwilligung.version, sent: versionsSent(w), finally: answered.data.ansicht };
    },
    holds: { shown: 'de-2026-04', sent: ['de-2026-03', 'de-2026-04'], finally: 'ergebnis' },
    broken: { shown: 'de-2026-04', sent: ['de-2026-03', 'de-2026-03'], finally: 'einwilligung' },
  });
});

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
      const verifier = String(w.spy.of('POST', '/sessions')[0]!.body!.code_verifier);
      const json = browser.hops.filter((hop) => hop.url.includes('/api/')).map((hop) => hop.text).join('\n');
      return { keys: [w.env.sandbox_key!, w.env.production_key!].filter((key) => browser.everything().includes(key)).length, stateInJson: json.includes(state), verifier: browser.everything().includes(verifier) };
    },
    holds: { keys: 0, stateInJson: false, verifier: false },
    broken: { keys: 1, stateInJson: false, verifier: false },
  });
});
