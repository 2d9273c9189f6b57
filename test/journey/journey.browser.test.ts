/** The journey in real Chromium, every test with its own emulator, agency and browser context, in parallel. */
import { describe, expect, it } from 'vitest';
import { revokeKey } from '../../emulator/use-cases/console/keys.js';
import { setRouting } from '../../emulator/use-cases/console/routing.js';
import { entriesOnPacks, findProductionEntryForPack } from '../../emulator/store/entries.js';
import { listPromotions, updatePromotionContent } from '../../emulator/store/promotions.js';
import { scansAfter } from '../../emulator/store/scans.js';
import { findUnitByCode } from '../../emulator/store/units.js';
import { useChromium } from '../support/chromium.js';
import { journeyWorld } from './browser-world.js';

const browser = useChromium();

type World = Awaited<ReturnType<typeof journeyWorld>>;

async function inWorld(options: Parameters<typeof journeyWorld>[1], test: (world: World) => Promise<void>) {
  const world = await journeyWorld(browser(), options);
  try {
    await test(world);
  } finally {
    await world.close();
  }
}

const productionEntries = (world: World) => {
  const { db } = world.emulator.world;
  const unit = findUnitByCode(db, world.packCode())!;
  return entriesOnPacks(db, listPromotions(db).map((promotion) => promotion.id), [unit.id]).map(({ state }) => ({ state }));
};

describe.concurrent('browser journey', { timeout: 120_000 }, () => {
  it('completes a production entry end to end through the agency, with PKCE', () =>
    inWorld({}, async (world) => {
      const { journey, page, agency } = world;
      await journey.scan(world.packCode());
      expect(journey.path()).toBe('/authorize');
      expect(await journey.heading()).toBe('Continue to Spring Instant Win');
      await journey.continueOnAuthorize();
      expect(page.url()).toBe(agency.callbackUrl.replace('/callback', '/play'));
      await journey.acceptAndEnter('Enter');
      expect(await journey.heading()).toBe('Result: won');
      expect(agency.record.exchanges).toEqual([{ status: 201 }]);
      await page.goto(`${world.emulator.baseUrl}/rewards`);
      const unit = findUnitByCode(world.emulator.world.db, world.packCode())!;
      const { codes } = findProductionEntryForPack(world.emulator.world.db, unit.promotion_id!, unit.id, world.emulator.world.clock.now())!;
      const newest = await page.getByRole('article').first().textContent();
      expect(newest).toContain('5 € voucher');
      expect(newest).toContain(JSON.parse(codes)[0]);
      const { device_type, country, tester } = scansAfter(world.emulator.world.db, 0).at(-1)!;
      const scan = { device_type, country, tester };
      expect(scan).toEqual({ device_type: 'mobile', country: 'DE', tester: 0 });
    }));

  it('keeps test codes in the tester flow: the agency never sees them', () =>
    inWorld({}, async (world) => {
      const code = world.env.test_packs[0]!;
      await world.journey.scan(code);
      expect(world.journey.path()).toBe(`/play/${code}`);
      // The pack is scanned already: the button enters, it does not ask for a scan (issue 15).
      await world.journey.acceptAndEnter(/^Enter$/);
      expect(await world.page.getByRole('heading', { name: 'Your result' }).count()).toBe(1);
      expect(world.agency.record.serviceRequests).toBe(0);
    }));

  for (const [name, change] of [
    ['routing is paused', (world: World) => setRouting(world.emulator.world, true)],
    ['the last production key is revoked', (world: World) => revokeKey(world.emulator.world, 2)],
  ] as const) {
    it(`lands on the hosted page, which completes an entry itself, when ${name}`, () =>
      inWorld({}, async (world) => {
        change(world);
        await world.journey.scan(world.packCode());
        expect(world.journey.path()).toBe(`/play/${world.packCode()}`);
        await world.journey.acceptAndEnter(/^Enter$/);
        expect(await world.page.getByRole('region', { name: 'Your result' }).textContent()).toContain('You won 5 € voucher');
        expect(productionEntries(world)).toEqual([{ state: 'won' }]);
        expect(world.agency.record.serviceRequests).toBe(0);
      }));
  }

  it('lands on the hosted page, which completes an entry itself, without approval', () =>
    inWorld({ approved: false }, async (world) => {
      await world.journey.scan(world.packCode());
      await world.journey.acceptAndEnter();
      expect(productionEntries(world)).toEqual([{ state: 'won' }]);
      expect(world.agency.record.serviceRequests).toBe(0);
    }));

  it('lands on the hosted page when the promotion is not live, which says so and enters nothing', () =>
    inWorld({}, async (world) => {
      updatePromotionContent(world.emulator.world.db, world.env.promotion_id, { ...world.emulator.world.fixture.promotion, status: 'draft' });
      await world.journey.scan(world.packCode());
      expect(world.journey.path()).toBe(`/play/${world.packCode()}`);
      expect(await world.page.getByText('This promotion is not running at the moment.').count()).toBe(1);
      expect(productionEntries(world)).toEqual([]);
      expect(world.agency.record.serviceRequests).toBe(0);
    }));

  it('stops an expired request token at the authorize page, which never redirects back', () =>
    inWorld({ onServiceRequest: (emulator) => emulator.world.clock.advance(5 * 60_000) }, async (world) => {
      await world.journey.scan(world.packCode());
      expect(world.journey.path()).toBe('/authorize');
      expect(await world.page.getByText('This request has expired').count()).toBe(1);
      expect(await world.page.getByRole('button', { name: 'Continue' }).count()).toBe(0);
      expect(world.agency.record.callbacksWithCode).toBe(0);
    }));

  it('refuses a reused code at the exchange and revokes the session the first exchange made', () =>
    inWorld({ defect: 'exchange_twice' }, async (world) => {
      await world.journey.scan(world.packCode());
      await world.journey.continueOnAuthorize();
      expect(world.agency.record.exchanges).toEqual([{ status: 201 }, { status: 400, error: 'invalid_grant' }]);
      expect(world.agency.record.firstSessionAfterReuse).toBe(401);
      expect(await world.journey.heading()).toBe('Please scan your pack again');
    }));

  it('refuses a wrong code_verifier at the exchange; no session, no entry', () =>
    inWorld({ defect: 'wrong_verifier' }, async (world) => {
      await world.journey.scan(world.packCode());
      await world.journey.continueOnAuthorize();
      expect(world.agency.record.exchanges).toEqual([{ status: 400, error: 'invalid_grant' }]);
      expect(await world.journey.heading()).toBe('Please scan your pack again');
      expect(productionEntries(world)).toEqual([]);
    }));

  it('shows the agency\'s calls on the dashboard\'s live log as they happen', () =>
    inWorld({ approved: false }, async (world) => {
      await world.page.goto(`${world.emulator.baseUrl}/`);
      const row = world.page.getByRole('log').getByRole('row').filter({ hasText: /pk_sandbox_….*GET \/api\/experience\/v1\/campaign/ });
      expect(await row.count()).toBe(0);
      await fetch(`${world.emulator.baseUrl}/api/experience/v1/campaign`, { headers: { authorization: `Bearer ${world.env.sandbox_key}` } });
      await row.waitFor({ timeout: 5000 });
    }));
});
