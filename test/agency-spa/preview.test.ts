/** The preview callback URL /vorschau: the six sandbox scenarios, through the app's own calls. @see spec §1 lifecycle 3, 4 and 6 */
import { describe, expect, test } from 'vitest';
import { checklist } from '../../emulator/use-cases/console/reads.js';
import { setCallbacks } from '../../emulator/use-cases/console/callbacks.js';
import { PREVIEWS } from '../../fixtures/agency-spa/preview.js';
import { SpaClient, bodyMarkers } from './spa-client.js';
import { entries, preview, spaWorld } from './world.js';

describe('the preview', () => {
  test("makes the brand checklist's six sessions and six entries, one scenario each, each its own state", async () => {
    const w = await spaWorld({ approved: false });
    setCallbacks(w.world, { production: w.agency.callbackUrl, preview: w.agency.previewUrl });
    const states: string[] = [];
    for (const { szenario } of PREVIEWS) states.push((await preview(w, new SpaClient(), szenario)).data.ergebnis.zustand);
    expect(states).toEqual(['gewonnen', 'verloren', 'ausstehend', 'fehlgeschlagen', 'nicht_berechtigt', 'bereits_teilgenommen']);
    expect([checklist(w.world).complete, checklist(w.world).missing]).toEqual([true, []]);
    expect(entries(w).map((call) => call.body)).toEqual(Array(6).fill({}));
  });

  test('lists its scenarios for the page, and serves the app at each address', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    const list = await browser.api('GET', w.at('/api/vorschau'));
    expect(list.data.szenarien.map((item: { szenario: string }) => item.szenario)).toEqual(['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered']);
    const pages = [];
    for (const path of ['/vorschau', '/vorschau/gewonnen', '/vorschau/nicht-berechtigt', '/vorschau/gibt-es-nicht']) pages.push([(await browser.open(w.at(path))).status, bodyMarkers(browser.hops.at(-1)!)]);
    expect(pages).toEqual([[200, { ansicht: 'laden' }], [200, { ansicht: 'laden' }], [200, { ansicht: 'laden' }], [404, { ansicht: 'fehler', fehler: 'nicht_gefunden' }]]);
  });

  test('refuses an unknown scenario, a missing CSRF token, and more than 60 previews a minute from one address', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    await browser.api('GET', w.at('/api/zustand'));
    const unknown = await browser.api('POST', w.at('/api/vorschau'), { szenario: 'jackpot' });
    const forged = await browser.api('POST', w.at('/api/vorschau'), { szenario: 'won' }, { 'x-csrf-token': 'forged' });
    const statuses = new Set<number>();
    for (let attempt = 0; attempt < 60; attempt += 1) statuses.add((await browser.api('POST', w.at('/api/vorschau'), { szenario: 'nope' })).status);
    expect([unknown.status, forged.status, [...statuses], w.spy.of('POST', '/sessions').length]).toEqual([400, 403, [400, 429], 0]);
  });

  test("passes the service's 429 on with its Retry-After, and enters nothing", async () => {
    const w = await spaWorld();
    w.spy.fail('POST', '/sessions', { status: 429, headers: { 'retry-after': '12' }, body: { error: 'rate_limited', message: 'Too many requests.' } });
    const answer = await preview(w, new SpaClient(), 'won');
    expect([answer.status, answer.headers.get('retry-after'), answer.data, entries(w).length]).toEqual([429, '12', { fehler: 'zu_viele_versuche', warte_s: 12 }, 0]);
  });
});
