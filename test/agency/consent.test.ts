/** Terms, consent and the entry body. @see spec §2.4, §2.6, §4.1 rule 1, §4.2 (422) */
import { describe, expect, test } from 'vitest';
import type { Fixture } from '../../emulator/fixture.js';
import { updatePromotionContent } from '../../emulator/store/promotions.js';
import { type Hop, TestBrowser, marker } from './test-browser.js';
import { type AgencyWorld, agencyWorld, enter, entries, rule, toConsent } from './world.js';

const MARCO = 'marco.rossi@example.test';


const input = (page: Hop, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(page.text)?.[0];

/** Anna's German terms, edited. */
const germanTerms = (edit: (terms: Fixture['promotion']['terms']['default']) => void) => (fixture: Fixture) => {
  edit(fixture.promotion.terms.by_country.DE!);
  return fixture;
};

/** The terms_version the agency's entry sent, after a collector ticked and sent the consent form. */
async function sentTermsVersion(w: AgencyWorld): Promise<{ sent: string | undefined }> {
  const browser = new TestBrowser();
  await enter(browser, await toConsent(w, browser));
  return { sent: (entries(w).at(-1)?.body?.consent as { terms_version?: string }).terms_version };
}

async function consentPage(w: AgencyWorld, email?: string): Promise<Hop> {
  const page = await toConsent(w, new TestBrowser(), { email });
  expect(marker(page, 'page')).toBe('consent');
  return page;
}

describe('terms', () => {
  rule({
    defect: 'terms-as-html',
    title: 'terms.text is rendered as text: markup in it stays inert',
    world: { fixture: germanTerms((terms) => void (terms.text = 'Read <b>carefully</b> <img src=x onerror="alert(1)">')) },
    observe: async (w) => {
      const page = await consentPage(w);
      return { markup: page.text.includes('<img src=x'), text: page.text.includes('Read &lt;b&gt;carefully&lt;/b&gt; &lt;img src=x onerror=&quot;alert(1)&quot;&gt;') };
    },
    holds: { markup: false, text: true },
    broken: { markup: true, text: false },
  });

  rule({
    defect: 'javascript-link',
    title: 'terms.url and terms.links become links only when http(s); others are shown as text',
    world: { fixture: germanTerms((terms) => void terms.links.push({ label: 'Prize rules', url: 'javascript:alert(document.cookie)' })) },
    observe: async (w) => {
      const page = await consentPage(w);
      const hrefs = [...page.text.matchAll(/<a [^>]*data-terms-link[^>]*>/g)].map((link) => /href="([^"]*)"/.exec(link[0])![1]);
      return { hrefs, shownAsText: page.text.includes('<span data-unsafe-link>javascript:alert(document.cookie)</span>') };
    },
    holds: { hrefs: ['https://alpenmilch.example/de/teilnahmebedingungen', 'https://alpenmilch.example/de/datenschutz'], shownAsText: true },
    broken: { hrefs: ['https://alpenmilch.example/de/teilnahmebedingungen', 'https://alpenmilch.example/de/datenschutz', 'javascript:alert(document.cookie)'], shownAsText: false },
  });
});

describe('consent', () => {
  rule({
    defect: 'consent-preselected',
    title: 'is not preselected',
    observe: async (w) => {
      const page = await consentPage(w);
      return { accept: input(page, 'accept_terms'), preselected: / checked/.test(page.text) };
    },
    holds: { accept: expect.not.stringContaining('checked'), preselected: false },
    broken: { accept: expect.stringContaining(' checked') },
  });

  rule({
    defect: 'marketing-preselected',
    title: 'with consentInDialog, no box in the dialog is preselected, the optional marketing box included (and the switch ticks it only as the form first opens)',
    world: { shape: { consentInDialog: true } },
    observe: async (w) => {
      const browser = new TestBrowser();
      const page = await toConsent(w, browser);
      const again = await browser.submit(page, '/entry', {});
      return { dialog: page.text.includes('<dialog id="entry-dialog"'), marketing: input(page, 'marketing_opt_in'), again: [again.status, input(again, 'marketing_opt_in')] };
    },
    holds: { dialog: true, marketing: expect.not.stringContaining('checked'), again: [400, expect.not.stringContaining('checked')] },
    broken: { dialog: true, marketing: expect.stringContaining(' checked'), again: [400, expect.not.stringContaining('checked')] },
  });

  rule({
    defect: 'consent-bundled-with-marketing',
    title: 'is separate from optional marketing consent, which is never sent to the service',
    observe: async (w) => {
      const browser = new TestBrowser();
      const page = await toConsent(w, browser);
      const marketing = input(page, 'marketing_opt_in');
      await enter(browser, page, { accept_terms: 'yes', confirm_age: 'yes' });
      return { marketing: marketing !== undefined && !marketing.includes('checked'), acceptLabel: /<label for="accept-terms">([^<]*)</.exec(page.text)?.[1], body: entries(w)[0]?.body };
    },
    holds: { marketing: true, acceptLabel: 'I have read and accept the terms and conditions.', body: { consent: { accepted: true, age_confirmed: true, terms_version: 'de-2026-03' } } },
    broken: { marketing: false, acceptLabel: expect.stringContaining('news and offers') },
  });

  rule({
    defect: 'consent-assumed',
    title: 'an entry without acceptance is refused on the server and never sent',
    observe: async (w) => {
      const browser = new TestBrowser();
      const page = await enter(browser, await toConsent(w, browser), { confirm_age: 'yes' });
      return { status: page.status, problem: page.text.includes('Please accept the terms to take part.'), sent: entries(w).map((call) => call.body) };
    },
    holds: { status: 400, problem: true, sent: [] },
    broken: { status: 200, sent: [{ consent: { accepted: true, age_confirmed: true, terms_version: 'de-2026-03' } }] },
  });

  rule({
    defect: 'age-not-asked',
    title: 'asks for the minimum age when the terms set one, and refuses an entry without it',
    observe: async (w) => {
      const browser = new TestBrowser();
      const page = await toConsent(w, browser);
      const refused = await enter(browser, page, { accept_terms: 'yes' });
      return { ageBox: input(page, 'confirm_age') !== undefined, label: page.text.includes('at least 18 years old'), refused: refused.status, sent: entries(w).length };
    },
    holds: { ageBox: true, label: true, refused: 400, sent: 0 },
    broken: { ageBox: false, label: false, refused: 200, sent: 1 },
  });

  test('without a minimum age, asks only for acceptance and sends no age_confirmed', async () => {
    const w = await agencyWorld();
    const browser = new TestBrowser();
    const page = await toConsent(w, browser, { email: MARCO });
    expect(input(page, 'confirm_age')).toBeUndefined();
    expect(marker(await enter(browser, page, { accept_terms: 'yes' }), 'page')).toBe('result');
    expect(entries(w)[0]!.body).toEqual({ consent: { accepted: true, terms_version: 'ch-2026-03' } });
  });

  rule({
    defect: 'inaccessible-consent',
    title: 'every checkbox has a label',
    observe: async (w) => {
      const page = await consentPage(w);
      const ids = [...page.text.matchAll(/<input type="checkbox" id="([^"]+)"/g)].map((match) => match[1]!);
      return { checkboxes: ids.length, unlabelled: ids.filter((id) => !page.text.includes(`<label for="${id}">`)) };
    },
    holds: { checkboxes: 3, unlabelled: [] },
    broken: { checkboxes: 3, unlabelled: ['accept-terms', 'confirm-age', 'marketing-opt-in'] },
  });
});

describe('after a 422 consent_required', () => {
  rule({
    defect: 'no-terms-refresh',
    title: "the session's terms are read again and the customer is asked again",
    observe: async (w) => {
      const browser = new TestBrowser();
      const page = await toConsent(w, browser);
      const content = structuredClone(w.world.fixture.promotion);
      content.terms.by_country.DE = { ...content.terms.by_country.DE!, text: 'Neue Bedingungen.', version: 'de-2026-04' };
      updatePromotionContent(w.world.db, w.env.promotion_id, content);
      const asked = await enter(browser, page);
      const again = await enter(browser, asked);
      return {
        asked: [marker(asked, 'entry-state'), /data-terms-version="([^"]+)"/.exec(asked.text)?.[1], asked.text.includes('Neue Bedingungen.'), input(asked, 'accept_terms')?.includes('checked')],
        sessionReads: w.spy.of('GET', '/session').length,
        versionsSent: entries(w).map((call) => (call.body?.consent as { terms_version: string }).terms_version),
        finally: marker(again, 'entry-state'),
      };
    },
    holds: { asked: ['consent_required', 'de-2026-04', true, false], sessionReads: 1, versionsSent: ['de-2026-03', 'de-2026-04'], finally: 'won' },
    broken: { asked: ['consent_required', 'de-2026-03', false, false], sessionReads: 0, finally: 'consent_required' },
  });
});

describe('the entry body', () => {
  rule({
    defect: 'stale-terms-version',
    title: "echoes the terms_version of this session's terms exactly",
    observe: async (w) => {
      await new TestBrowser().open(`${w.agency.url}/preview/won`);
      const browser = new TestBrowser();
      const result = await enter(browser, await toConsent(w, browser));
      return { sent: (entries(w).at(-1)?.body?.consent as { terms_version?: string }).terms_version, state: marker(result, 'entry-state') };
    },
    holds: { sent: 'de-2026-03', state: 'won' },
    broken: { sent: '2026-03', state: 'consent_required' },
  });

  rule({
    defect: 'terms-version-lowercased',
    title: 'echoes a mixed-case terms_version as it is',
    world: { fixture: germanTerms((terms) => void (terms.version = 'DE-2026-03a')) },
    observe: sentTermsVersion,
    holds: { sent: 'DE-2026-03a' },
    broken: { sent: 'de-2026-03a' },
  });

  rule({
    defect: 'terms-version-trimmed',
    title: 'echoes a terms_version with surrounding and inner spaces and non-ASCII letters as it is',
    world: { fixture: germanTerms((terms) => void (terms.version = ' DE-2026-03 · Größe  v1 ')) },
    observe: sentTermsVersion,
    holds: { sent: ' DE-2026-03 · Größe  v1 ' },
    broken: { sent: 'DE-2026-03 · Größe  v1' },
  });

  rule({
    defect: 'entry-forbidden-fields',
    title: 'carries consent only: no consumer id, email, pack code or country',
    observe: async (w) => {
      const browser = new TestBrowser();
      const result = await enter(browser, await toConsent(w, browser));
      return { fields: Object.keys(entries(w)[0]!.body!), state: marker(result, 'entry-state') };
    },
    holds: { fields: ['consent'], state: 'won' },
    broken: { fields: ['consent', 'country'], state: 'error' },
  });
});
