/** A delayed reward is claimed once its delivery stands delivered (domain/delivery.ts), not before, and a failing one never. */
import { expect, it } from 'vitest';
import { loadFixture } from '../fixture.js';
import { openDb } from './db.js';
import { storeEntry } from './entries.js';
import { serviceKeyId } from './keys.js';
import { defaultPromotionId, loadCampaign } from './promotions.js';
import { listRedemptions } from './redemptions.js';
import { createSession } from './sessions.js';
import { seedWorld } from './world.js';

const FIXTURE = loadFixture(new URL('../../fixtures/default.json', import.meta.url).pathname);
const NOW = Date.parse('2026-11-21T10:00:00.000Z');

it('lists a delayed reward from its due time, as claimed then, and a delayed one that fails never', () => {
  const db = openDb(':memory:', (db) => seedWorld(db, { ...FIXTURE, history: { scans: 0 } }, FIXTURE.seed, NOW));
  const campaign = loadCampaign(db, defaultPromotionId(db));
  const { session } = createSession(db, FIXTURE.seed, { keyId: serviceKeyId(db, campaign.promotion.id, NOW), promotionId: campaign.promotion.id, sandbox: false, now: NOW });
  const maker = (packId: number) => ({ campaign, sessionId: session.id, sandbox: false, collectorId: 1, packId, country: 'DE', termsVersion: null });
  const prize = campaign.prizes[0]!;
  const delivered = storeEntry(db, maker(1), NOW, { prize, delivery: 'delayed', code: 'AM-1' });
  storeEntry(db, maker(2), NOW, { prize, delivery: 'delayed_failed', code: 'AM-2' });
  const listed = (at: number) => listRedemptions(db, campaign.brand.id, { limit: 10, offset: 0 }, at).map((row) => [row.entry_id, row.claimed_at]);
  expect(listed(NOW + 29_999)).toEqual([]);
  expect(listed(NOW + 30_000)).toEqual([[delivered.id, NOW + 30_000]]);
});
