/**
 * Issue 14, defect 3, header by header: a form's CSRF value is an HMAC of the browser's
 * `promo_csrf` id keyed by a secret only the server holds, so a value planted in the cookie and
 * repeated in the form is refused even from a client sending no `Origin`; and a form posted from
 * another origin is refused by `Origin` or `Sec-Fetch-Site` even with a valid value.
 * (csrf-cross-port.browser.test.ts runs the attack in Chromium.)
 */
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { listAgencyKeys } from '../../emulator/store/keys.js';
import { defaultPromotionId, getPromotion } from '../../emulator/store/promotions.js';
import { storedRows } from '../support/stored.js';
import { csrfOf } from '../journey/support.js';
import { type TestWorld, testWorld } from '../world.js';

const PLANTED = 'p'.repeat(43);

const routingPaused = (t: TestWorld) => Number(getPromotion(t.world.db, defaultPromotionId(t.world.db)).routing_paused);

/** A browser that loaded the dashboard: its cookie and the form value the page gave it. */
async function dashboardBrowser(t: TestWorld) {
  const browser = request.agent(t.app);
  const page = await browser.get('/').set('Host', '127.0.0.1:4010');
  return { browser, csrf: csrfOf(page.text) };
}

describe('dashboard and page forms against CSRF (issue 14, defect 3)', () => {
  it('refuses a promo_csrf planted by another page and repeated in the form, even without Origin', async () => {
    const t = testWorld();
    const keys = () => listAgencyKeys(t.world.db).map(({ id, revoked_at }) => ({ id, revoked_at }));
    const before = keys();
    for (const path of ['/console/pause', '/console/keys/2/revoke', '/console/approve', '/console/keys']) {
      const res = await request(t.app).post(path).set('Cookie', `promo_csrf=${PLANTED}`).type('form').send({ csrf: PLANTED, environment: 'production' });
      expect(res.status, path).toBe(403);
    }
    expect(routingPaused(t)).toBe(0);
    expect(keys()).toEqual(before);
  });

  it('gives each browser its own value, bound to its cookie: one browser\'s value does not work with another\'s cookie', async () => {
    const t = testWorld();
    const first = await dashboardBrowser(t);
    const second = await dashboardBrowser(t);
    expect(first.csrf).not.toBe(second.csrf);
    expect((await second.browser.post('/console/pause').type('form').send({ csrf: first.csrf })).status).toBe(403);
    expect(routingPaused(t)).toBe(0);
    expect((await second.browser.post('/console/pause').type('form').send({ csrf: second.csrf })).status).toBe(303);
    expect(routingPaused(t)).toBe(1);
  });

  it('refuses a form posted from another origin or site, even with a valid value', async () => {
    const t = testWorld();
    const { browser, csrf } = await dashboardBrowser(t);
    const crossSite: Array<Record<string, string>> = [
      { Origin: 'http://127.0.0.1:3000', Host: '127.0.0.1:4010' },
      { Origin: 'null', Host: '127.0.0.1:4010' },
      { 'Sec-Fetch-Site': 'same-site', Host: '127.0.0.1:4010' },
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example', Host: '127.0.0.1:4010' },
      { 'Sec-Fetch-Site': 'same-site', Origin: 'http://127.0.0.1:4010', Host: '127.0.0.1:4010' },
    ];
    for (const headers of crossSite) {
      expect((await browser.post('/console/pause').set(headers).type('form').send({ csrf })).status, JSON.stringify(headers)).toBe(403);
    }
    expect(routingPaused(t)).toBe(0);
    const sameOrigin = await browser.post('/console/pause').set({ Origin: 'http://127.0.0.1:4010', Host: '127.0.0.1:4010', 'Sec-Fetch-Site': 'same-origin' }).type('form').send({ csrf });
    expect(sameOrigin.status).toBe(303);
    expect(routingPaused(t)).toBe(1);
  });

  it('guards the journey\'s forms the same way: sign-in from another port is refused', async () => {
    const t = testWorld();
    const collector = t.env.collectors[0]!.id;
    const planted = await request(t.app).post('/sign-in').set('Cookie', `promo_csrf=${PLANTED}`).type('form').send({ csrf: PLANTED, collector_id: collector, next: '/promotions' });
    expect(planted.status).toBe(403);
    const browser = request.agent(t.app);
    const csrf = csrfOf((await browser.get('/sign-in')).text);
    const crossPort = await browser.post('/sign-in').set({ Origin: 'http://127.0.0.1:3000', Host: '127.0.0.1:4010' }).type('form').send({ csrf, collector_id: collector, next: '/promotions' });
    expect(crossPort.status).toBe(403);
    expect(storedRows(t.world.db, 'browser_sessions')).toHaveLength(0);
  });
});
