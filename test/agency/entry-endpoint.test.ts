/** The agency's own entry endpoint: CSRF protection and a rate limit. @see spec §4.3 */
import { describe, expect, test } from 'vitest';
import { ENTRY_LIMIT } from '../../fixtures/agency-reference/config.js';
import { TestBrowser, formOf, marker } from './test-browser.js';
import { ACCEPT, agencyWorld, enter, rule, toConsent } from './world.js';

describe('POST /entry', () => {
  rule({
    defect: 'entry-without-csrf',
    title: 'refuses a form without the CSRF token of this browser, and sends nothing',
    observe: async (w) => {
      const browser = new TestBrowser();
      await toConsent(w, browser);
      const forged = await browser.request('POST', `${w.agency.url}/entry`, { ...ACCEPT, csrf: 'x'.repeat(43) });
      return { status: forged.status, entries: w.spy.of('POST', '/session/entry').length };
    },
    holds: { status: 403, entries: 0 },
    broken: { status: 303, entries: 1 },
  });

  rule({
    defect: 'confirm-without-csrf',
    title: 'with confirmPage, POST /entry/confirm refuses a post without the CSRF token of this browser, and sends nothing',
    world: { shape: { confirmPage: true } },
    observe: async (w) => {
      const browser = new TestBrowser();
      const summary = await enter(browser, await toConsent(w, browser));
      const forged = await browser.request('POST', `${w.agency.url}/entry/confirm`, { csrf: 'x'.repeat(43) });
      return { summary: marker(summary, 'page'), status: forged.status, entries: w.spy.of('POST', '/session/entry').length };
    },
    holds: { summary: 'confirm', status: 303, entries: 0 },
    broken: { summary: 'confirm', status: 303, entries: 1 },
  });

  test('refuses a token taken from another browser', async () => {
    const w = await agencyWorld();
    const mine = new TestBrowser();
    await toConsent(w, mine);
    const theirs = formOf((await toConsent(w, new TestBrowser(), { pack: 1 })).text, '/entry');
    const forged = await mine.request('POST', `${w.agency.url}/entry`, { ...ACCEPT, csrf: theirs.csrf! });
    expect(forged.status).toBe(403);
  });

  test('sends nothing once the entry has its answer: posting again only shows the result', async () => {
    const w = await agencyWorld();
    const browser = new TestBrowser();
    const consent = await toConsent(w, browser);
    const won = await browser.submit(consent, '/entry', ACCEPT);
    const again = await browser.submit(consent, '/entry', ACCEPT);
    expect([marker(won, 'entry-state'), marker(again, 'entry-state'), w.spy.of('POST', '/session/entry').length]).toEqual(['won', 'won', 1]);
  });

  test('without a session cookie asks to scan again', async () => {
    const w = await agencyWorld();
    const page = await new TestBrowser().request('POST', `${w.agency.url}/entry`, ACCEPT);
    expect([page.status, marker(page, 'error')]).toEqual([403, 'no_journey']);
  });

  rule({
    defect: 'entry-not-rate-limited',
    title: `allows ${ENTRY_LIMIT.max} submissions a minute per browser, then answers 429 with Retry-After`,
    observe: async (w) => {
      const browser = new TestBrowser();
      await toConsent(w, browser);
      const statuses = [];
      for (let attempt = 0; attempt <= ENTRY_LIMIT.max; attempt += 1) statuses.push((await browser.request('POST', `${w.agency.url}/entry`, { csrf: 'wrong' })).status);
      const last = browser.hops.at(-1)!;
      return { last: statuses.at(-1), retryAfter: last.headers.get('retry-after'), error: marker(last, 'error') };
    },
    holds: { last: 429, retryAfter: '60', error: 'too_many_requests' },
    broken: { last: 403, retryAfter: null },
  });
});
