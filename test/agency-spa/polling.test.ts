/**
 * Delivery polling of a pending entry through /api/zustand: 2, 5, 10, then 30 s, and when it
 * stops, both the service's reads and what the page is told to do. @see spec §8, §3
 */
import { describe, expect, test } from 'vitest';
import { setRouting } from '../../emulator/use-cases/console/routing.js';
import { SpaClient } from './spa-client.js';
import { type SpaWorld, enter, preview, spaRule, spaWorld, toConsent } from './world.js';

const polls = (w: SpaWorld) => w.spy.of('GET', '/session').length;

/** A pending sandbox entry, and the page's one question: its state now. */
async function pending(w: SpaWorld) {
  const browser = new SpaClient();
  const entered = await preview(w, browser, 'pending');
  expect(entered.data.ergebnis.zustand).toBe('ausstehend');
  return { entered, ask: async () => (await browser.api('GET', w.at('/api/zustand'))).data };
}

describe('a pending entry', () => {
  spaRule({
    defect: 'polls-every-2s',
    title: 'is polled at 2, 5, 10, then every 30 s, however often the page asks, and the page is told when to ask',
    observe: async (w) => {
      const { entered, ask } = await pending(w);
      // The page asks every second for 47 s: the service is read at 2, 7, 17 and 47 s only.
      const told: number[] = [entered.data.abfrage.naechste_ms];
      for (let second = 1; second <= 47; second += 1) {
        w.advanceAgency(1000);
        const before = polls(w);
        const { abfrage } = await ask();
        if (polls(w) > before) told.push(abfrage.naechste_ms);
      }
      return { polls: polls(w), told: told.slice(0, 5) };
    },
    holds: { polls: 4, told: [2000, 5000, 10_000, 30_000, 30_000] },
    broken: { polls: 23, told: [2000, 2000, 2000, 2000, 2000] },
  });

  test('is told how long is left when it asks early, without a poll', async () => {
    const w = await spaWorld();
    const { ask } = await pending(w);
    w.advanceAgency(1500);
    expect([(await ask()).abfrage, polls(w)]).toEqual([{ status: 'aktiv', naechste_ms: 500 }, 0]);
  });

  spaRule({
    defect: 'status-polled-forever',
    title: 'stops once delivered: the code is shown, the service is not read again, and the page is told to stop asking',
    observe: async (w) => {
      const { ask } = await pending(w);
      w.advance(30_000);
      const delivered = await ask();
      w.advanceAgency(120_000);
      const later = await ask();
      return { state: delivered.ergebnis.zustand, codes: delivered.ergebnis.codes.length, told: [delivered.abfrage, later.abfrage], polls: polls(w) };
    },
    holds: { state: 'gewonnen', codes: 1, told: [{ status: 'beendet', ende: 'zugestellt' }, { status: 'beendet', ende: 'zugestellt' }], polls: 1 },
    broken: { state: 'gewonnen', codes: 1, told: [{ status: 'aktiv', naechste_ms: 2000 }, { status: 'aktiv', naechste_ms: 2000 }], polls: 1 },
  });

  test('stops when the delivery fails, and shows the delay', async () => {
    const w = await spaWorld({
      fixture: (fixture) => {
        for (const prize of fixture.promotion.prizes) if (prize.delivery === 'delayed') prize.delivery = 'delayed_failed';
        return fixture;
      },
    });
    const browser = new SpaClient();
    await toConsent(w, browser, { outcome: 'pending' });
    expect((await enter(w, browser)).data.ergebnis.zustand).toBe('ausstehend');
    w.advance(30_000);
    const { data } = await browser.api('GET', w.at('/api/zustand'));
    expect([data.ergebnis.zustand, data.abfrage]).toEqual(['fehlgeschlagen', { status: 'beendet', ende: 'fehlgeschlagen' }]);
  });

  test('stops when the session expires, keeping the Rewards page in reach', async () => {
    const w = await spaWorld();
    const { ask } = await pending(w);
    w.world.clock.advance(31 * 60_000);
    w.advanceAgency(2000);
    const expired = await ask();
    w.advanceAgency(60_000);
    await ask();
    expect([expired.ergebnis.zustand, expired.abfrage, polls(w)]).toEqual(['ausstehend', { status: 'beendet', ende: 'abgelaufen' }, 1]);
    expect(expired.ergebnis.praemien_url).toMatch(/\/rewards$/);
  });

  test('stops when the integration becomes unavailable', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    await toConsent(w, browser, { outcome: 'pending' });
    await enter(w, browser);
    setRouting(w.world, true);
    w.advanceAgency(2000);
    expect((await browser.api('GET', w.at('/api/zustand'))).data.abfrage).toEqual({ status: 'beendet', ende: 'nicht_verfuegbar' });
  });

  test('backs off for Retry-After when a poll is rate limited', async () => {
    const w = await spaWorld();
    const { ask } = await pending(w);
    w.spy.fail('GET', '/session', { status: 429, headers: { 'retry-after': '45' }, body: { error: 'rate_limited', message: 'Too many requests.' } });
    w.advanceAgency(2000);
    expect((await ask()).abfrage).toEqual({ status: 'aktiv', naechste_ms: 45_000 });
  });
});
