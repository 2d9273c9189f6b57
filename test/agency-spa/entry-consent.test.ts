/**
 * The agency's entry endpoint POST /api/teilnahme: what it takes, the consent it asks for, the body
 * it sends, and a 422 consent_required. @see spec §2.4, §2.6, §4.1 rule 1, §4.3
 */
import { describe, expect, test } from 'vitest';
import type { Fixture } from '../../emulator/fixture.js';
import { updatePromotionContent } from '../../emulator/store/promotions.js';
import { SpaClient } from './spa-client.js';
import { ACCEPT, MARCO, type SpaWorld, enter, entries, spaRule, spaWorld, toConsent } from './world.js';

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
