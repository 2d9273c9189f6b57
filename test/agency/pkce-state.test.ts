/** The production journey's transaction: state, PKCE, the cookie, single use. @see spec §4.3, §5 rule 4 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { TestBrowser, marker } from './test-browser.js';
import { type AgencyWorld, agencyWorld, authorize, authorizeQuery, callbackUrl, rule, toAuthorize, toConsent } from './world.js';

const STATE = /^[A-Za-z0-9_-]{32,128}$/;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** A callback URL with one parameter replaced. */
const withParam = (url: string, name: string, value: string) => {
  const changed = new URL(url);
  changed.searchParams.set(name, value);
  return changed.href;
};

const exchanges = (w: AgencyWorld) => w.spy.of('POST', '/sessions').length;

describe('the production journey', () => {
  test('goes scan, sign-in, authorize with an S256 challenge, exchange with the stored verifier, then the consent page at a clean URL', async () => {
    const w = await agencyWorld();
    const browser = new TestBrowser();
    const page = await toAuthorize(w, browser);
    const query = Object.fromEntries(new URL(page.url).searchParams);
    expect(Object.keys(query).sort()).toEqual(['code_challenge', 'code_challenge_method', 'request_token', 'state']);
    expect(query).toMatchObject({ code_challenge_method: 'S256', state: expect.stringMatching(STATE) });

    const consent = await browser.open(await authorize(browser, page));
    expect(consent.url).toBe(`${w.agency.url}/result`);
    expect(marker(consent, 'page')).toBe('consent');
    const [exchange] = w.spy.of('POST', '/sessions');
    const verifier = exchange!.body!.code_verifier as string;
    expect(verifier).toMatch(VERIFIER);
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(query.code_challenge);
    expect(exchange!.status).toBe(201);
  });

  test('refuses a callback whose transaction is older than ten minutes, without calling the service', async () => {
    const w = await agencyWorld();
    const browser = new TestBrowser();
    const url = await callbackUrl(w, browser);
    w.advanceAgency(10 * 60_000 + 1);
    const page = await browser.open(url);
    expect([page.status, marker(page, 'error'), exchanges(w)]).toEqual([400, 'unsolicited_callback', 0]);
  });

  test('refuses a callback carrying both service_request and service_code', async () => {
    const w = await agencyWorld();
    const page = await new TestBrowser().open(`${w.agency.callbackUrl}?service_request=rt_1&service_code=sc_1&state=${'s'.repeat(43)}`);
    expect([page.status, marker(page, 'error'), exchanges(w)]).toEqual([400, 'malformed_callback', 0]);
  });
});

describe('state', () => {
  rule({
    defect: 'short-state',
    title: 'is 32 to 128 base64url characters',
    observe: async (w) => ({ state: (await authorizeQuery(w, new TestBrowser())).state }),
    holds: { state: expect.stringMatching(STATE) },
    broken: { state: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) },
  });

  rule({
    defect: 'state-from-browser',
    title: 'is never taken from the browser',
    observe: async (w) => {
      const planted = 'p'.repeat(43);
      const hop = await new TestBrowser().request('GET', `${w.agency.callbackUrl}?service_request=rt_planted&state=${planted}`);
      return { status: hop.status, planted: new URL(hop.headers.get('location')!).searchParams.get('state') === planted };
    },
    holds: { status: 303, planted: false },
    broken: { status: 303, planted: true },
  });

  rule({
    defect: 'state-not-checked',
    title: 'rejects a callback with a tampered state, with an error page and no exchange',
    observe: async (w) => {
      const browser = new TestBrowser();
      const url = await callbackUrl(w, browser);
      const page = await browser.open(withParam(url, 'state', 't'.repeat(43)));
      return { status: page.status, error: marker(page, 'error'), exchanges: exchanges(w) };
    },
    holds: { status: 400, error: 'state_mismatch', exchanges: 0 },
    broken: { status: 200, exchanges: 1 },
  });

  rule({
    defect: 'state-compared-by-prefix',
    title: 'rejects a truncated or extended state, not only a changed one',
    observe: async (w) => ({ ...(await changedThenTruncated(w)), exchanges: exchanges(w) }),
    holds: { changed: 'state_mismatch', truncated: 'state_mismatch', exchanges: 0 },
    broken: { changed: 'state_mismatch', truncated: undefined, exchanges: 1 },
  });

  rule({
    defect: 'state-prefix-consumed-on-mismatch',
    title: 'rejects a truncated state on a transaction of its own, and a mismatched one ends nothing it should not',
    observe: async (w) => {
      const oneAfterAnother = await changedThenTruncated(w);
      const other = new TestBrowser();
      const own = await callbackUrl(w, other);
      const first = await other.open(withParam(own, 'state', new URL(own).searchParams.get('state')!.slice(0, -1)));
      return { ...oneAfterAnother, truncatedFirst: marker(first, 'error'), exchanges: exchanges(w) };
    },
    holds: { changed: 'state_mismatch', truncated: 'state_mismatch', truncatedFirst: 'state_mismatch', exchanges: 0 },
    broken: { changed: 'state_mismatch', truncated: 'unsolicited_callback', truncatedFirst: undefined, exchanges: 1 },
  });

  rule({
    defect: 'unsolicited-callback-accepted',
    title: 'rejects an unsolicited callback, with an error page and no exchange',
    observe: async (w) => {
      const page = await new TestBrowser().open(`${w.agency.callbackUrl}?service_code=sc_unsolicited&state=${'u'.repeat(43)}`);
      return { status: page.status, error: marker(page, 'error'), exchanges: exchanges(w) };
    },
    holds: { status: 400, error: 'unsolicited_callback', exchanges: 0 },
    broken: { error: 'exchange_failed', exchanges: 1 },
  });

  rule({
    defect: 'transaction-reusable',
    title: 'consumes the transaction once: a replayed callback is rejected without a second exchange',
    observe: async (w) => {
      const browser = new TestBrowser();
      const url = await callbackUrl(w, browser);
      const first = await browser.open(url);
      const replay = await browser.open(url);
      return { first: marker(first, 'page'), replay: replay.status, exchanges: exchanges(w) };
    },
    holds: { first: 'consent', replay: 400, exchanges: 1 },
    broken: { first: 'consent', exchanges: 2 },
  });

  rule({
    defect: 'transaction-not-bound-to-cookie',
    title: 'requires the browser that started the journey: the callback opened in another browser is rejected',
    observe: async (w) => {
      const url = await callbackUrl(w, new TestBrowser());
      const elsewhere = await new TestBrowser().open(url);
      return { status: elsewhere.status, page: marker(elsewhere, 'page'), exchanges: exchanges(w) };
    },
    holds: { status: 400, page: 'error', exchanges: 0 },
    broken: { status: 200, page: 'consent', exchanges: 1 },
  });
});

describe('PKCE', () => {
  rule({
    defect: 'short-verifier',
    title: 'code_verifier is 43 to 128 unreserved characters',
    observe: async (w) => {
      const browser = new TestBrowser();
      await toConsent(w, browser);
      return { verifier: w.spy.of('POST', '/sessions')[0]!.body!.code_verifier };
    },
    holds: { verifier: expect.stringMatching(VERIFIER) },
    broken: { verifier: expect.stringMatching(/^[A-Za-z0-9_-]{42}$/) },
  });

  rule({
    defect: 'plain-challenge',
    title: 'code_challenge_method is S256',
    observe: async (w) => ({ method: (await authorizeQuery(w, new TestBrowser())).code_challenge_method }),
    holds: { method: 'S256' },
    broken: { method: 'plain' },
  });

  rule({
    defect: 'padded-challenge',
    title: 'code_challenge is unpadded base64url: 43 characters',
    observe: async (w) => ({ challenge: (await authorizeQuery(w, new TestBrowser())).code_challenge }),
    holds: { challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    broken: { challenge: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/) },
  });

  rule({
    defect: 'verifier-reused',
    title: 'state and verifier are fresh for every journey',
    observe: async (w) => {
      const first = await authorizeQuery(w, new TestBrowser());
      const second = await authorizeQuery(w, new TestBrowser(), { pack: 1 });
      return { sameState: first.state === second.state, sameChallenge: first.code_challenge === second.code_challenge };
    },
    holds: { sameState: false, sameChallenge: false },
    broken: { sameState: false, sameChallenge: true },
  });
});

describe('a failed exchange', () => {
  rule({
    defect: 'exchange-retried',
    title: 'after a network interruption is not retried: the page asks to scan again and guesses no result',
    observe: async (w) => {
      const browser = new TestBrowser();
      const url = await callbackUrl(w, browser);
      w.spy.fail('POST', '/sessions', 'drop');
      const page = await browser.open(url);
      return { page: marker(page, 'page'), error: marker(page, 'error'), exchanges: exchanges(w) };
    },
    holds: { page: 'error', error: 'exchange_failed', exchanges: 1 },
    broken: { exchanges: 2 },
  });

  rule({
    defect: 'guesses-result-after-failed-exchange',
    title: 'shows no result it was not given: the page asks to scan again',
    observe: async (w) => {
      const browser = new TestBrowser();
      const url = await callbackUrl(w, browser);
      w.spy.fail('POST', '/sessions', 'drop');
      const page = await browser.open(url);
      return { error: marker(page, 'error'), state: marker(page, 'entry-state') };
    },
    holds: { error: 'exchange_failed', state: undefined },
    broken: { error: undefined, state: 'lost' },
  });

  test('with an expired code shows the scan-again page and no form', async () => {
    const w = await agencyWorld();
    const browser = new TestBrowser();
    const url = await callbackUrl(w, browser);
    w.world.clock.advance(5 * 60_000 + 1);
    const page = await browser.open(url);
    expect([page.status, marker(page, 'error'), marker(page, 'entry-state')]).toEqual([400, 'exchange_failed', undefined]);
    expect(page.text).toContain('Scan the QR code on the pack again');
    expect(page.text).not.toContain('action="/entry"');
  });
});

/** One journey's callback opened with its state's last character changed, then truncated: the error each page shows. */
async function changedThenTruncated(w: AgencyWorld): Promise<{ changed: string | undefined; truncated: string | undefined }> {
  const browser = new TestBrowser();
  const url = await callbackUrl(w, browser);
  const state = new URL(url).searchParams.get('state')!;
  const changed = await browser.open(withParam(url, 'state', `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`));
  const truncated = await browser.open(withParam(url, 'state', state.slice(0, -1)));
  return { changed: marker(changed, 'error'), truncated: marker(truncated, 'error') };
}
