/**
 * The reference agency's defects for the harness's edges (issue 42): a final page that keeps its
 * 30 s self-trigger, and a consent form that asks for an email it sends in the entry.
 * @see spec §8, §3, §4.1 rule 1
 */
import { describe } from 'vitest';
import { TestBrowser } from './test-browser.js';
import { ACCEPT, enter, entries, rule, toConsent } from './world.js';


describe('the harness edges', () => {
  rule({
    defect: 'final-page-repolls',
    title: "the settled page carries no poll script: it asks its own server nothing more",
    observe: async (w) => {
      const browser = new TestBrowser();
      await browser.open(`${w.agency.url}/preview/pending`);
      w.advance(30_000);
      const settled = await browser.open(`${w.agency.url}/result`);
      const script = (await browser.open(`${w.agency.url}/poll.js`)).text;
      return { script: settled.text.includes('<script src="/poll.js"></script>'), every30s: script.includes(": 30)") };
    },
    holds: { script: false, every30s: false },
    broken: { script: true, every30s: true },
  });

  rule({
    defect: 'consent-asks-email',
    title: 'the consent form asks for nothing but consent, and the entry carries consent only',
    observe: async (w) => {
      const browser = new TestBrowser();
      const consent = await toConsent(w, browser);
      await enter(browser, consent, { ...ACCEPT, email: 'harness.de@example.test' });
      return { asks: consent.text.includes('type="email"'), fields: Object.keys(entries(w)[0]!.body!) };
    },
    holds: { asks: false, fields: ['consent'] },
    broken: { asks: true, fields: ['consent', 'email'] },
  });
});
