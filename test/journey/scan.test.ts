import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { revokeKey } from '../../emulator/use-cases/console/keys.js';
import { setRouting } from '../../emulator/use-cases/console/routing.js';
import { hashSecret } from '../../emulator/domain/secrets.js';
import { updatePromotionContent } from '../../emulator/store/promotions.js';
import { lastScanId, scansAfter } from '../../emulator/store/scans.js';
import { findSkuByPrefix } from '../../emulator/store/skus.js';
import { findUnitByCode, unitsOfSku } from '../../emulator/store/units.js';
import { storedRows } from '../support/stored.js';
import { testWorld, type TestWorld } from '../world.js';
import { CALLBACK, MOBILE_UA, approvedWorld, packCode, serviceRequestOf, signedIn } from './support.js';

/** Scans the journey recorded, after the fixture's seeded history. */
const scans = (t: TestWorld) =>
  scansAfter(t.world.db, seeded.get(t) ?? 0).map(({ collector_id, tester, country, city, device_type }) => ({ collector_id, tester, country, city, device_type }));
const seeded = new WeakMap<TestWorld, number>();
const mark = (t: TestWorld) => {
  seeded.set(t, lastScanId(t.world.db));
  return t;
};

describe('pack scan', () => {
  it('shows a clear 404 page for an unknown pack code, escaping what was typed', async () => {
    const t = testWorld();
    const res = await request(t.app).get('/q/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(res.status).toBe(404);
    expect(res.type).toBe('text/html');
    expect(res.text).toContain('Pack not found');
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.text).not.toContain('<script>alert');
  });

  it('shows the recall notice before sign-in and before any hand-off, recording nothing', async () => {
    const t = mark(await approvedWorld());
    const recalled = t.env.recalled_packs[0]!;
    const anonymous = await request(t.app).get(`/q/${recalled}`);
    const browser = await signedIn(t);
    const signed = await browser.get(`/q/${recalled}`);
    for (const res of [anonymous, signed]) {
      expect(res.status).toBe(200);
      expect(res.text).toContain('has been recalled');
      expect(res.headers.location).toBeUndefined();
    }
    expect(scans(t)).toEqual([]);
  });

  it('asks an anonymous browser to sign in first and records the scan only after', async () => {
    const t = mark(testWorld());
    const code = packCode(t);
    const res = await request(t.app).get(`/q/${code}`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/sign-in?next=${encodeURIComponent(`/q/${code}`)}`);
    expect(scans(t)).toEqual([]);
  });

  it('the sign-in page a scan leads to names the pack and the promotion it takes part in (issue 26 item 7)', async () => {
    const t = testWorld();
    const code = packCode(t);
    const signIn = await request(t.app).get(`/sign-in?next=${encodeURIComponent(`/q/${code}`)}`);
    expect(signIn.status).toBe(200);
    const note = /<section class="scanned"[^>]*>([\s\S]*?)<\/section>/.exec(signIn.text)?.[1]?.replace(/<[^>]+>/g, '');
    expect(note).toBe(`You scanned pack ${code} (${findUnitByCode(t.world.db, code)!.sku_name}): it takes part in Spring Instant Win by Alpenmilch. Sign in to play.`);
    const plain = await request(t.app).get('/sign-in?next=%2Frewards');
    expect(plain.text).not.toContain('class="scanned"');
  });

  it('records a production scan with the sign-in country, city and device, and announces it', async () => {
    const t = mark(testWorld());
    const announced: number[] = [];
    t.world.events.on('scan.recorded', ({ scanId }) => announced.push(scanId));
    const browser = await signedIn(t, 'anna.weber@example.test', MOBILE_UA);
    await browser.get(`/q/${packCode(t)}`).expect(303);
    const tablet = await signedIn(t, 'lena.gruber@example.test', 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)');
    await tablet.get(`/q/${packCode(t, 'lost')}`).expect(303);
    const desktop = await signedIn(t, 'marco.rossi@example.test', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0');
    await desktop.get(`/q/${packCode(t, 'pending')}`).expect(303);
    expect(scans(t)).toEqual([
      { collector_id: 1, tester: 0, country: 'DE', city: 'Berlin', device_type: 'mobile' },
      { collector_id: 3, tester: 0, country: 'AT', city: 'Vienna', device_type: 'tablet' },
      { collector_id: 4, tester: 0, country: 'CH', city: 'Zurich', device_type: 'desktop' },
    ]);
    expect(announced).toHaveLength(3);
  });

  it('routes an approved, live, unpaused promotion with a production key to the callback with a hashed, bound service_request', async () => {
    const t = await approvedWorld();
    const browser = await signedIn(t);
    const code = packCode(t);
    const res = await browser.get(`/q/${code}`);
    expect(res.status).toBe(303);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const location = new URL(res.headers.location!);
    expect(location.origin + location.pathname).toBe(CALLBACK);
    expect([...location.searchParams.keys()]).toEqual(['service_request']);
    const token = serviceRequestOf(res.headers.location!);
    const stored = storedRows(t.world.db, 'request_tokens');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ token_hash: hashSecret(token), collector_id: 1, country: 'DE', callback_url: CALLBACK, expires_at: t.world.clock.now() + 5 * 60_000 });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(t.logLines.join('')).not.toContain(token);
  });

  it.each([
    ['a test pack', (t: TestWorld) => t.env.test_packs[0]!, 'anna.weber@example.test', 'test packs stay in the tester flow'],
    ['a private preview pack', (t: TestWorld) => t.env.preview_packs[0]!, 'anna.weber@example.test', 'private preview packs use the hosted page'],
    ['a tester account', (t: TestWorld) => packCode(t), 'qa.tester@example.test', 'tester accounts stay in the tester flow'],
  ])('keeps %s in the tester flow on the hosted page, never routed, scan marked tester', async (_name, pack, email, reason) => {
    const t = mark(await approvedWorld());
    const browser = await signedIn(t, email);
    const code = pack(t);
    const res = await browser.get(`/q/${code}`);
    expect(res.headers.location).toBe(`/play/${code}`);
    expect(scans(t)[0]).toMatchObject({ tester: 1 });
    expect((await browser.get(`/play/${code}`)).text).toContain(reason);
    expect(storedRows(t.world.db, 'request_tokens')).toHaveLength(0);
  });

  it.each([
    ['without approval', async () => testWorld(), 'the brand has not approved the agency experience'],
    ['when routing is paused', async () => { const t = await approvedWorld(); setRouting(t.world, true); return t; }, 'the brand paused routing to the agency'],
    ['when the last production key is revoked', async () => { const t = await approvedWorld(); revokeKey(t.world, 2); return t; }, 'no production key is active'],
    ['when the production key has expired', async () => { const t = await approvedWorld(); t.world.clock.advance(91 * 86_400_000); return t; }, 'no production key is active'],
    ['when the promotion is not live', async () => {
      const t = await approvedWorld();
      updatePromotionContent(t.world.db, t.env.promotion_id, { ...t.world.fixture.promotion, status: 'draft' });
      return t;
    }, 'the promotion is not live'],
  ])('sends production scans to the hosted page %s', async (_name, build, reason) => {
    const t = await build();
    const browser = await signedIn(t);
    const code = packCode(t);
    expect((await browser.get(`/q/${code}`)).headers.location).toBe(`/play/${code}`);
    expect((await browser.get(`/play/${code}`)).text).toContain(reason);
  });

  it('tells the collector when no promotion runs on the pack, after recording the scan', async () => {
    const t = mark(testWorld({ fixture: (f) => ({ ...f, promotions: f.promotions.filter((promotion) => promotion.brand !== 'nordkakao') }) }));
    const other = unitsOfSku(t.world.db, findSkuByPrefix(t.world.db, 'NK-DRK')!.id)[0]!;
    const browser = await signedIn(t);
    const res = await browser.get(`/q/${other.code}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('No promotion is running');
    expect(scans(t)).toHaveLength(1);
  });
});
