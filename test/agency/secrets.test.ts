/** Keys, session tokens and verifiers stay on the agency's server. @see spec §2.1, §2.3, §5 rules 4 and 6 */
import { inflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { TestBrowser, marker } from './test-browser.js';
import { type AgencyWorld, agencyWorld, enter, everythingSeen, issuedSessionTokens, rule, toConsent } from './world.js';

/** A production journey to its result, plus a sandbox preview, in one browser. */
async function fullJourney(w: AgencyWorld): Promise<TestBrowser> {
  const browser = new TestBrowser();
  const result = await enter(browser, await toConsent(w, browser, { outcome: 'pending' }));
  expect(marker(result, 'entry-state')).toBe('pending');
  w.advance(2_000);
  await browser.open(`${w.agency.url}/result`);
  await browser.open(`${w.agency.url}/preview/won`);
  return browser;
}

const verifiers = (w: AgencyWorld) => w.spy.of('POST', '/sessions').flatMap((call) => (typeof call.body?.code_verifier === 'string' ? [call.body.code_verifier] : []));

describe('secrets', () => {
  test('never reach the browser: no key, session token or verifier in any URL, header, cookie or page', async () => {
    const w = await agencyWorld();
    const browser = await fullJourney(w);
    const secrets = [w.env.sandbox_key!, w.env.production_key!, ...issuedSessionTokens(w), ...verifiers(w)];
    expect(secrets).toHaveLength(2 + 2 + 1);
    const seen = everythingSeen(browser);
    expect(secrets.filter((secret) => seen.includes(secret))).toEqual([]);
  });

  rule({
    defect: 'key-in-browser',
    title: 'the agency keys are never sent to the browser',
    observe: async (w) => {
      const seen = everythingSeen(await fullJourney(w));
      return { sandbox: seen.includes(w.env.sandbox_key!), production: seen.includes(w.env.production_key!) };
    },
    holds: { sandbox: false, production: false },
    broken: { production: true },
  });

  rule({
    defect: 'key-in-browser-hex',
    title: 'the agency keys are never sent to the browser, not even written in hex',
    observe: async (w) => ({ production: everythingSeen(await fullJourney(w)).includes(Buffer.from(w.env.production_key!).toString('hex')) }),
    holds: { production: false },
    broken: { production: true },
  });

  rule({
    defect: 'session-token-in-url',
    title: 'session tokens never appear in a URL',
    observe: async (w) => {
      const browser = await fullJourney(w);
      const tokens = issuedSessionTokens(w);
      return { inUrl: browser.hops.some((hop) => tokens.some((token) => hop.url.includes(token) || hop.headers.get('location')?.includes(token))) };
    },
    holds: { inUrl: false },
    broken: { inUrl: true },
  });

  rule({
    defect: 'verifier-in-cookie',
    title: 'the verifier is stored server-side, never in a cookie',
    observe: async (w) => {
      const browser = new TestBrowser();
      await toConsent(w, browser);
      const [verifier] = verifiers(w);
      return { verifierCookie: [...browser.cookies().values()].some((cookie) => decodeURIComponent(cookie.value) === verifier), cookies: [...browser.cookies().keys()].filter((name) => name.startsWith('agency')) };
    },
    holds: { verifierCookie: false, cookies: ['agency_session'] },
    broken: { verifierCookie: true },
  });

  rule({
    defect: 'verifier-in-signed-cookie',
    title: 'the verifier is stored server-side, never in a signed session cookie either',
    observe: async (w) => {
      const browser = new TestBrowser();
      await toConsent(w, browser);
      const [verifier] = verifiers(w);
      const payload = /^\.([A-Za-z0-9_-]+)\./.exec(browser.cookies().get('agency_flask_session')?.value ?? '')?.[1];
      const held = payload ? (JSON.parse(inflateSync(Buffer.from(payload, 'base64url')).toString('utf8')) as { code_verifier?: string }) : undefined;
      return { verifierInCookie: held?.code_verifier === verifier, cookies: [...browser.cookies().keys()].filter((name) => name.startsWith('agency')) };
    },
    holds: { verifierInCookie: false, cookies: ['agency_session'] },
    broken: { verifierInCookie: true },
  });
});
