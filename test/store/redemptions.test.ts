/**
 * A delayed delivery stands delivered from its due time (domain/delivery.ts): an entry is found so,
 * and its reward claimed so, not before; a failing one is never claimed.
 */
import { expect, it } from 'vitest';
import { openDb } from '../../emulator/store/db.js';
import { findEntryForSession, findProductionEntryForPack, storeEntry } from '../../emulator/store/entries.js';
import { serviceKeyId } from '../../emulator/store/keys.js';
import { defaultPromotionId, loadCampaign } from '../../emulator/store/promotions.js';
import { listRedemptions } from '../../emulator/store/redemptions.js';
import { createSession } from '../../emulator/store/sessions.js';
import { seedWorld } from '../../emulator/store/world.js';
import { DEFAULT_FIXTURE as FIXTURE, FROZEN_AT as NOW } from '../world.js';


function world() {
  const db = openDb(':memory:', (db) => seedWorld(db, { ...FIXTURE, history: { scans: 0 } }, FIXTURE.seed, NOW));
  const campaign = loadCampaign(db, defaultPromotionId(db));
  const { session } = createSession(db, FIXTURE.seed, { keyId: serviceKeyId(db, campaign.promotion.id, NOW), promotionId: campaign.promotion.id, sandbox: false, now: NOW });
  const maker = (unitId: number) => ({ campaign, sessionId: session.id, sandbox: false, collectorId: 1, unitId, country: 'DE', termsVersion: null });
  return { db, campaign, session, maker };
}

it('finds a pack\'s entry and a session\'s entry as they stand at the time asked, the stored row untouched', () => {
  const { db, campaign, session, maker } = world();
  storeEntry(db, maker(1), NOW, { prize: campaign.prizes[0]!, delivery: 'delayed', code: 'AM-1' });
  const due = NOW + campaign.promotion.content.delivery_delay_seconds * 1000;
  const states = (at: number) => [findProductionEntryForPack(db, campaign.promotion.id, 1, at)!.delivery_state, findEntryForSession(db, session.id, at)!.delivery_state];
  expect(states(due - 1)).toEqual(['processing', 'processing']);
  expect(states(due)).toEqual(['delivered', 'delivered']);
  expect(db.prepare('SELECT delivery_state FROM entries').pluck().all()).toEqual(['processing']);
});

it('lists a delayed reward from its due time, as claimed then, and a delayed one that fails never', () => {
  const { db, campaign, maker } = world();
  const prize = campaign.prizes[0]!;
  const delivered = storeEntry(db, maker(1), NOW, { prize, delivery: 'delayed', code: 'AM-1' });
  storeEntry(db, maker(2), NOW, { prize, delivery: 'delayed_failed', code: 'AM-2' });
  const listed = (at: number) => listRedemptions(db, campaign.brand.id, { limit: 10, offset: 0 }, at).map((row) => [row.entry_id, row.claimed_at]);
  expect(listed(NOW + 29_999)).toEqual([]);
  expect(listed(NOW + 30_000)).toEqual([[delivered.id, NOW + 30_000]]);
});
