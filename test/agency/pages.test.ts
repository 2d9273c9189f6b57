/** The landing page and the sandbox preview. @see spec §1 rules and lifecycle 3, §4.1 (sandbox), §4.2 */
import { describe, expect, test } from 'vitest';
import { checklist } from '../../emulator/use-cases/console/reads.js';
import { setCallbacks } from '../../emulator/use-cases/console/callbacks.js';
import { SANDBOX_SCENARIOS } from '../../fixtures/agency-reference/preview.js';
import { TestBrowser, marker } from './test-browser.js';
import { type AgencyWorld, agencyWorld, rule } from './world.js';

describe('the callback URL without service_request', () => {
  rule({
    defect: 'landing-requires-scan',
    title: 'is the campaign landing page: copy, prizes and "scan a participating pack"',
    observe: async (w) => {
      const page = await new TestBrowser().open(w.agency.callbackUrl);
      return { status: page.status, page: marker(page, 'page'), name: page.text.includes('<h1>Spring Instant Win</h1>'), prize: page.text.includes('<li>Concert tickets for two</li>'), scan: page.text.includes('data-scan-prompt') };
    },
    holds: { status: 200, page: 'landing', name: true, prize: true, scan: true },
    broken: { status: 400, page: 'error' },
  });

  rule({
    defect: 'home-content-fails',
    title: 'with loadingLanding, redirects to a home page whose script draws the campaign it fetches',
    world: { shape: { loadingLanding: true } },
    observe: async (w) => {
      const home = await new TestBrowser().open(w.agency.callbackUrl);
      const content = await fetch(new URL('/home/content', w.agency.url));
      const drawn = (await content.json()) as { page: string; html: string };
      return { home: new URL(home.url).pathname, status: content.status, page: drawn.page, name: drawn.html.includes('Spring Instant Win') };
    },
    holds: { home: '/home', status: 200, page: 'landing', name: true },
    broken: { home: '/home', status: 503, page: 'error', name: false },
  });

  test('creates no browser session for a mere visitor', async () => {
    const w = await agencyWorld();
    const page = await new TestBrowser().request('GET', `${w.agency.callbackUrl}?utm_source=poster`);
    expect([page.status, page.headers.get('set-cookie')]).toEqual([200, null]);
  });
});

describe('the sandbox preview', () => {
  test('lists the six scenarios', async () => {
    const w = await agencyWorld();
    const page = await new TestBrowser().open(w.agency.previewUrl);
    expect(marker(page, 'page')).toBe('preview');
    expect([...page.text.matchAll(/data-scenario="([^"]+)"/g)].map((match) => match[1])).toEqual([...SANDBOX_SCENARIOS]);
  });

  test('renders each scenario as its own page state, with empty sandbox entries', async () => {
    const w = await agencyWorld();
    const states = [];
    for (const scenario of SANDBOX_SCENARIOS) {
      const page = await new TestBrowser().open(`${w.agency.previewUrl}/${scenario}`);
      expect([page.url, marker(page, 'environment')]).toEqual([`${w.agency.url}/result`, 'sandbox']);
      states.push(marker(page, 'entry-state'));
    }
    expect(states).toEqual([...SANDBOX_SCENARIOS]);
    expect(w.spy.of('POST', '/session/entry').map((call) => call.body)).toEqual(SANDBOX_SCENARIOS.map(() => ({})));
  });

  test('answers 404 for an unknown scenario without calling the service', async () => {
    const w = await agencyWorld();
    const page = await new TestBrowser().open(`${w.agency.previewUrl}/jackpot`);
    expect([page.status, marker(page, 'error'), w.spy.calls.length]).toEqual([404, 'not_found', 0]);
  });

  test("passes on the service's Retry-After when sandbox sessions are rate limited", async () => {
    const w = await agencyWorld();
    w.spy.fail('POST', '/sessions', { status: 429, headers: { 'retry-after': '12' }, body: { error: 'rate_limited', message: 'Too many requests.' } });
    const page = await new TestBrowser().open(`${w.agency.previewUrl}/won`);
    expect([page.status, page.headers.get('retry-after'), marker(page, 'error'), w.spy.of('POST', '/session/entry').length]).toEqual([429, '12', 'too_many_requests', 0]);
  });

  rule({
    defect: 'preview-skips-refused-entries',
    title: "makes the checklist's six sessions and six entries through the UI",
    world: { approved: false },
    observe: async (w) => {
      setCallbacks(w.world, { production: w.agency.callbackUrl, preview: w.agency.previewUrl });
      for (const scenario of SANDBOX_SCENARIOS) await new TestBrowser().open(`${w.agency.previewUrl}/${scenario}`);
      return { complete: checklist(w.world).complete, missing: checklist(w.world).missing };
    },
    holds: { complete: true, missing: [] },
    broken: { complete: false, missing: ['ineligible: submit an entry', 'already_entered: submit an entry'] },
  });

  /** A preview scenario's page shows its own state; its defect shows it as another. */
  const previewShows = (scenario: string, shownAs: string) => ({
    title: `shows the ${scenario} scenario as its own state`,
    observe: async (w: AgencyWorld) => ({ state: marker(await new TestBrowser().open(`${w.agency.previewUrl}/${scenario}`), 'entry-state') }),
    holds: { state: scenario },
    broken: { state: shownAs },
  });
  rule({ defect: 'won-shown-as-lost', ...previewShows('won', 'lost') });
  rule({ defect: 'lost-shown-as-error', ...previewShows('lost', 'error') });
  rule({ defect: 'pending-shown-as-error', ...previewShows('pending', 'error') });
  rule({ defect: 'failed-shown-as-error', ...previewShows('failed', 'error') });
  rule({ defect: 'ineligible-shown-as-error', ...previewShows('ineligible', 'error') });
  rule({ defect: 'already-entered-shown-as-error', ...previewShows('already_entered', 'error') });

  rule({
    defect: 'sandbox-entry-forbidden-fields',
    title: "sends the sandbox entry as {}: no consumer id, email, pack code or country",
    observe: async (w) => {
      const page = await new TestBrowser().open(`${w.agency.previewUrl}/won`);
      const [entry] = w.spy.of('POST', '/session/entry');
      return { body: entry!.body, status: entry!.status, state: marker(page, 'entry-state') };
    },
    holds: { body: {}, status: 200, state: 'won' },
    broken: { body: { email: expect.any(String) }, status: 400, state: 'error' },
  });

  rule({
    defect: 'won-without-codes',
    title: 'shows a won prize with its delivered code',
    observe: async (w) => {
      const page = await new TestBrowser().open(`${w.agency.previewUrl}/won`);
      return { state: marker(page, 'entry-state'), code: /<code data-code>([^<]+)<\/code>/.exec(page.text)?.[1] };
    },
    holds: { state: 'won', code: expect.stringMatching(/^SANDBOX-/) },
    broken: { state: 'won', code: undefined },
  });
});
