/** Delivery polling of a pending entry: 2, 5, 10, then 30 s, and when it stops. @see spec §8, §3 */
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { setRouting } from '../../emulator/use-cases/console/routing.js';
import { type Hop, TestBrowser, marker } from './test-browser.js';
import { type AgencyWorld, agencyWorld, enter, rule, toConsent } from './world.js';

const polls = (w: AgencyWorld) => w.spy.of('GET', '/session').length;

/** The page's poll script, loaded only while polling goes on. */
const pollScript = (page: Hop) => page.text.includes('<script src="/poll.js"></script>');

async function pendingPreview(w: AgencyWorld): Promise<{ browser: TestBrowser; page: Hop; reload: () => Promise<Hop> }> {
  const browser = new TestBrowser();
  const page = await browser.open(`${w.agency.url}/preview/pending`);
  expect(marker(page, 'entry-state')).toBe('pending');
  return { browser, page, reload: () => browser.open(`${w.agency.url}/result`) };
}

/**
 * What /poll.js does on a page, run in a bare context: the page `main` (its markers), the status
 * its server answers; whether it reloads the page, asks again later, or stops.
 */
async function scriptOn(script: string, main: { entryState: string; polling: string; nextPoll?: string }, status: object): Promise<'reloads' | 'asks again' | 'stops'> {
  const page = { reloaded: false };
  const timers: Array<() => unknown> = [];
  const element = { dataset: main };
  runInNewContext(script, {
    document: { querySelector: (selector: string) => (selector.includes('="active"') && main.polling !== 'active' ? null : element) },
    fetch: async () => ({ json: async () => status }),
    location: { reload: () => void (page.reloaded = true) },
    setTimeout: (run: () => unknown) => void timers.push(run),
    Number,
  });
  if (timers.length === 0) return 'stops';
  await timers.shift()!();
  return page.reloaded ? 'reloads' : timers.length ? 'asks again' : 'stops';
}

describe('a pending entry', () => {
  test('is polled at 2, 5, 10, then every 30 s, however often the page reloads', async () => {
    const w = await agencyWorld();
    const { page, reload } = await pendingPreview(w);
    expect([marker(page, 'polling'), marker(page, 'next-poll'), pollScript(page)]).toEqual(['active', '2', true]);
    const schedule: string[] = [];
    for (const interval of [2, 5, 10, 30, 30]) {
      w.advanceAgency((interval - 1) * 1000);
      const early = await reload();
      expect(marker(early, 'next-poll')).toBe('1');
      w.advanceAgency(1000);
      schedule.push(marker(await reload(), 'next-poll')!);
    }
    expect(schedule).toEqual(['5', '10', '30', '30', '30']);
    expect(polls(w)).toBe(5);
  });

  test('has a status for the page script that polls the service only when due and holds no secret', async () => {
    const w = await agencyWorld();
    const { browser } = await pendingPreview(w);
    const status = async () => JSON.parse((await browser.request('GET', `${w.agency.url}/result/status`)).text) as unknown;
    expect(await status()).toEqual({ state: 'pending', polling: 'active', next_poll: 2 });
    w.advance(2000);
    expect(await status()).toEqual({ state: 'pending', polling: 'active', next_poll: 5 });
    w.advance(30_000);
    expect(await status()).toEqual({ state: 'won', polling: 'stopped', next_poll: null });
    expect(polls(w)).toBe(2);
  });

  test('backs off for Retry-After when a poll is rate limited', async () => {
    const w = await agencyWorld();
    const { reload } = await pendingPreview(w);
    w.spy.fail('GET', '/session', { status: 429, headers: { 'retry-after': '45' }, body: { error: 'rate_limited', message: 'Too many requests.' } });
    w.advanceAgency(2000);
    expect(marker(await reload(), 'next-poll')).toBe('45');
  });

  rule({
    defect: 'polls-too-fast',
    title: 'is never polled sooner than the schedule',
    observe: async (w) => {
      const { page, reload } = await pendingPreview(w);
      for (let second = 1; second <= 10; second += 1) {
        w.advanceAgency(1000);
        await reload();
      }
      return { first: marker(page, 'next-poll'), polls: polls(w) };
    },
    holds: { first: '2', polls: 2 },
    broken: { first: '1', polls: 10 },
  });

  rule({
    defect: 'never-stops-polling',
    title: 'stops polling once delivered, and shows the delivered code',
    observe: async (w) => {
      const { reload } = await pendingPreview(w);
      w.advance(30_000);
      const delivered = await reload();
      const before = polls(w);
      w.advanceAgency(120_000);
      await reload();
      return {
        state: marker(delivered, 'entry-state'), codes: delivered.text.includes('data-code'),
        polling: marker(delivered, 'polling'), script: pollScript(delivered), later: polls(w) - before,
      };
    },
    holds: { state: 'won', codes: true, polling: 'stopped', script: false, later: 0 },
    broken: { state: 'won', polling: 'active', script: true, later: 1 },
  });

  rule({
    defect: 'stale-page-after-delivery',
    title: "the page's script reloads the page when polling stops, so it shows the delivered prize",
    observe: async (w) => {
      const script = (await new TestBrowser().open(`${w.agency.url}/poll.js`)).text;
      return { pending: await scriptOn(script, { entryState: 'pending', polling: 'active', nextPoll: '2' }, { state: 'won', polling: 'stopped', next_poll: null }) };
    },
    holds: { pending: 'reloads' },
    broken: { pending: 'stops' },
  });

  rule({
    defect: 'polls-own-server-only',
    title: 'asks the service when the page asks and a poll is due, so a settled delivery ends polling',
    observe: async (w) => {
      const { reload } = await pendingPreview(w);
      w.advance(30_000);
      const page = await reload();
      return { state: marker(page, 'entry-state'), polling: marker(page, 'polling'), polls: polls(w) };
    },
    holds: { state: 'won', polling: 'stopped', polls: 1 },
    broken: { state: 'pending', polling: 'active', polls: 0 },
  });

  rule({
    defect: 'page-polls-forever',
    title: "the page's script is gone once polling stopped, and asks nothing more",
    observe: async (w) => {
      const { reload } = await pendingPreview(w);
      w.advance(30_000);
      const delivered = await reload();
      const script = (await new TestBrowser().open(`${w.agency.url}/poll.js`)).text;
      return { script: pollScript(delivered), asks: await scriptOn(script, { entryState: 'won', polling: 'stopped' }, { state: 'won', polling: 'stopped', next_poll: null }) };
    },
    holds: { script: false, asks: 'stops' },
    broken: { script: true, asks: 'asks again' },
  });

  test('stops when delivery fails, and shows the delay', async () => {
    const w = await agencyWorld({
      fixture: (fixture) => {
        for (const prize of fixture.promotion.prizes) if (prize.delivery === 'delayed') prize.delivery = 'delayed_failed';
        return fixture;
      },
    });
    const browser = new TestBrowser();
    expect(marker(await enter(browser, await toConsent(w, browser, { outcome: 'pending' })), 'entry-state')).toBe('pending');
    w.advance(30_000);
    const page = await browser.open(`${w.agency.url}/result`);
    expect([marker(page, 'entry-state'), marker(page, 'poll-stopped'), pollScript(page)]).toEqual(['failed', 'failed', false]);
    expect(page.text).toContain('data-delivery-delayed');
  });

  test('stops when the session expires, pointing to the Rewards page', async () => {
    const w = await agencyWorld();
    const { reload } = await pendingPreview(w);
    w.world.clock.advance(31 * 60_000);
    w.advanceAgency(2000);
    const page = await reload();
    expect([marker(page, 'entry-state'), marker(page, 'polling'), marker(page, 'poll-stopped'), pollScript(page)]).toEqual(['pending', 'stopped', 'expired', false]);
    expect(page.text).toContain('data-rewards-link');
    w.advanceAgency(60_000);
    await reload();
    expect(polls(w)).toBe(1);
  });

  test('stops when the integration becomes unavailable', async () => {
    const w = await agencyWorld();
    const browser = new TestBrowser();
    await enter(browser, await toConsent(w, browser, { outcome: 'pending' }));
    setRouting(w.world, true);
    w.advanceAgency(2000);
    const page = await browser.open(`${w.agency.url}/result`);
    expect([marker(page, 'poll-stopped'), pollScript(page)]).toEqual(['unavailable', false]);
  });
});
