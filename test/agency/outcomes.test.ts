/** Every outcome of spec §4.2 as its own page state, and how the agency behaves after each. */
import { describe, expect, test } from 'vitest';
import { keys } from '../../emulator/use-cases/console/reads.js';
import { revokeKey } from '../../emulator/use-cases/console/keys.js';
import { setRouting } from '../../emulator/use-cases/console/routing.js';
import { TestBrowser, marker } from './test-browser.js';
import { type AgencyWorld, type JourneyOptions, agencyWorld, enter, entries, rule, toConsent } from './world.js';


async function production(w: AgencyWorld, options: JourneyOptions = {}) {
  const browser = new TestBrowser();
  const result = await enter(browser, await toConsent(w, browser, options));
  return { browser, result, state: marker(result, 'entry-state') };
}

describe('a production entry', () => {
  test('won: shows the prize, its delivered code, the redemption link and the Rewards link', async () => {
    const w = await agencyWorld();
    const { result, state } = await production(w);
    expect([state, marker(result, 'environment'), result.url]).toEqual(['won', 'production', `${w.agency.url}/result`]);
    const entry = entries(w)[0]!.response!.entry as { prize: { name: string }; codes: string[]; redemption_url: string };
    expect(result.text).toContain(`<strong data-prize>${entry.prize.name}</strong>`);
    expect(result.text).toContain(`<code data-code>${entry.codes[0]}</code>`);
    expect(result.text).toContain(`href="${entry.redemption_url}" data-redemption-url`);
    expect(result.text).toContain(`href="${w.spy.url}/rewards" data-rewards-link`);
  });

  test.each([
    ['lost', {}, 'lost'],
    ['pending', {}, 'pending'],
    ['failed', {}, 'failed'],
    ['ineligible', { email: 'claire.martin@example.test' }, 'won'],
  ] as const)('%s: its own page state', async (expected, who, outcome) => {
    const w = await agencyWorld();
    const { result, state } = await production(w, { ...who, outcome });
    expect(state).toBe(expected);
    if (expected === 'failed') expect(result.text).toContain('data-delivery-delayed');
  });

  test('already_entered: another collector learns only that the pack was entered', async () => {
    const w = await agencyWorld();
    const first = await production(w);
    const second = await production(w, { email: 'jonas.bauer@example.test' });
    expect([first.state, second.state]).toEqual(['won', 'already_entered']);
    const code = (entries(w)[0]!.response!.entry as { codes: string[] }).codes[0]!;
    expect(second.result.text).not.toContain(code);
    expect(second.result.text).not.toContain('data-prize');
  });

  test('unavailable after the brand revokes the production key: the Rewards link', async () => {
    const w = await agencyWorld();
    const browser = new TestBrowser();
    const page = await toConsent(w, browser);
    revokeKey(w.world, keys(w.world).find((key) => key.environment === 'production')!.id);
    const result = await enter(browser, page);
    expect([marker(result, 'entry-state'), entries(w)[0]!.status]).toEqual(['unavailable', 401]);
    expect(result.text).toContain('data-rewards-link');
  });
});

describe('unavailable', () => {
  rule({
    defect: 'unavailable-shown-as-error',
    title: 'shows an unavailable promotion as its own state',
    observe: async (w) => {
      const browser = new TestBrowser();
      const page = await toConsent(w, browser);
      setRouting(w.world, true);
      return { state: marker(await enter(browser, page), 'entry-state') };
    },
    holds: { state: 'unavailable' },
    broken: { state: 'error' },
  });

  rule({
    defect: 'unavailable-without-rewards-link',
    title: 'shows an unavailable state with a route back to the Rewards page',
    observe: async (w) => {
      const browser = new TestBrowser();
      const page = await toConsent(w, browser);
      setRouting(w.world, true);
      const result = await enter(browser, page);
      return { state: marker(result, 'entry-state'), status: entries(w)[0]!.status, rewards: /href="([^"]+)" data-rewards-link/.exec(result.text)?.[1] };
    },
    holds: { state: 'unavailable', status: 409, rewards: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/rewards$/) },
    broken: { state: 'unavailable', rewards: undefined },
  });
});

describe('invalid_session', () => {
  rule({
    defect: 'invalid-session-shown-as-error',
    title: 'shows an ended session as its own state, asking to rescan',
    observe: async (w) => {
      const browser = new TestBrowser();
      const page = await toConsent(w, browser);
      w.advance(31 * 60_000);
      return { state: marker(await enter(browser, page), 'entry-state') };
    },
    holds: { state: 'invalid_session' },
    broken: { state: 'error' },
  });

  rule({
    defect: 'new-identity-after-401',
    title: 'asks the customer to rescan and never retries with another identity',
    observe: async (w) => {
      const browser = new TestBrowser();
      const page = await toConsent(w, browser);
      w.advance(31 * 60_000);
      await toConsent(w, new TestBrowser(), { email: 'jonas.bauer@example.test', pack: 1 });
      const result = await enter(browser, page);
      return { state: marker(result, 'entry-state'), rescan: result.text.includes('data-rescan'), sessions: new Set(entries(w).map((call) => call.session)).size };
    },
    holds: { state: 'invalid_session', rescan: true, sessions: 1 },
    broken: { state: 'won', sessions: 2 },
  });

  rule({
    defect: 'sandbox-identity-after-401',
    title: 'asks the customer to rescan and never turns to a sandbox session either',
    observe: async (w) => {
      const browser = new TestBrowser();
      const page = await toConsent(w, browser);
      w.advance(31 * 60_000);
      const result = await enter(browser, page);
      return { state: marker(result, 'entry-state'), rescan: result.text.includes('data-rescan'), sessions: new Set(entries(w).map((call) => call.session)).size };
    },
    holds: { state: 'invalid_session', rescan: true, sessions: 1 },
    broken: { state: 'lost', sessions: 2 },
  });
});

describe('failed', () => {
  rule({
    defect: 'redraws-after-failed',
    title: 'shows a delivery delay and never enters again',
    observe: async (w) => {
      const page = await new TestBrowser().open(`${w.agency.url}/preview/failed`);
      return { state: marker(page, 'entry-state'), delay: page.text.includes('data-delivery-delayed'), entries: entries(w).length };
    },
    holds: { state: 'failed', delay: true, entries: 1 },
    broken: { delay: false, entries: 2 },
  });
});

describe('rate_limited', () => {
  const tooMany = { status: 429, headers: { 'retry-after': '30' }, body: { error: 'rate_limited', message: 'Too many requests.' } };

  rule({
    defect: 'rate-limited-shown-as-error',
    title: 'shows a rate-limited entry as its own state, with the wait',
    observe: async (w) => {
      const browser = new TestBrowser();
      const page = await toConsent(w, browser);
      w.spy.fail('POST', '/session/entry', tooMany);
      const limited = await enter(browser, page);
      return { state: marker(limited, 'entry-state'), wait: limited.text.includes('wait 30 seconds') };
    },
    holds: { state: 'rate_limited', wait: true },
    broken: { state: 'error', wait: false },
  });

  rule({
    defect: 'ignores-retry-after',
    title: 'waits for Retry-After before the entry is sent again',
    observe: async (w) => {
      const browser = new TestBrowser();
      const page = await toConsent(w, browser);
      w.spy.fail('POST', '/session/entry', tooMany, 3);
      const limited = await enter(browser, page);
      const early = await enter(browser, limited);
      return { limited: [marker(limited, 'entry-state'), marker(limited, 'retry-after')], early: marker(early, 'entry-state'), calls: entries(w).length };
    },
    holds: { limited: ['rate_limited', '30'], early: 'rate_limited', calls: 1 },
    broken: { limited: ['rate_limited', '0'], early: 'won', calls: 3 + 1 },
  });

  test('lets the customer send the entry again once Retry-After has passed', async () => {
    const w = await agencyWorld();
    const browser = new TestBrowser();
    const page = await toConsent(w, browser);
    w.spy.fail('POST', '/session/entry', tooMany);
    const limited = await enter(browser, page);
    w.advanceAgency(29_000);
    expect(marker(await browser.open(`${w.agency.url}/result`), 'retry-after')).toBe('1');
    w.advanceAgency(1_000);
    expect(marker(await enter(browser, limited), 'entry-state')).toBe('won');
    expect(entries(w).map((call) => call.status)).toEqual([429, 200]);
  });
});
