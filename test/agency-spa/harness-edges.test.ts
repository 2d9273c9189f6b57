/**
 * The single-page agency's defect for the harness's CSRF probe (issue 42): a token checked only on
 * requests that carry the framework's header its page sends. @see spec §4.3
 */
import { describe } from 'vitest';
import { SpaClient } from './spa-client.js';
import { entries, spaRule, toConsent } from './world.js';

describe('the entry endpoint and its framework header', () => {
  spaRule({
    defect: 'csrf-only-with-hx-request',
    title: 'refuses a plain form post from another site, with or without the page\'s HX-Request header; nothing reaches the service',
    observe: async (w) => {
      const browser = new SpaClient();
      await toConsent(w, browser);
      const withHeader = await browser.request('POST', w.at('/api/teilnahme'), { form: { agb: 'ja', alter: 'ja' }, headers: { 'hx-request': 'true' } });
      const plain = await browser.request('POST', w.at('/api/teilnahme'), { form: { agb: 'ja', alter: 'ja' }, headers: { origin: 'https://cross-site.example' } });
      return { withHeader: withHeader.status, plain: plain.status, sent: entries(w).length };
    },
    holds: { withHeader: 403, plain: 403, sent: 0 },
    broken: { withHeader: 403, plain: 200, sent: 1 },
  });
});
