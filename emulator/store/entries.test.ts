/** An entry is found as it stands at the time asked (domain/delivery.ts): a delayed delivery reads processing until due, then delivered. */
import { expect, it } from 'vitest';
import { loadFixture } from '../fixture.js';
import { openDb } from './db.js';
import { findEntryForSession, findProductionEntryForPack, storeEntry } from './entries.js';
import { serviceKeyId } from './keys.js';
import { defaultPromotionId, loadCampaign } from './promotions.js';
import { createSession } from './sessions.js';
import { seedWorld } from './world.js';

const FIXTURE = loadFixture(new URL('../../fixtures/default.json', import.meta.url).pathname);
const NOW = Date.parse('2026-11-21T10:00:00.000Z');

it('finds a pack\'s entry and a session\'s entry as they stand at the time asked, the stored row untouched', () => {
  const db = openDb(':memory:', (db) => seedWorld(db, { ...FIXTURE, history: { scans: 0 } }, FIXTURE.seed, NOW));
  const campaign = loadCampaign(db, defaultPromotionId(db));
  const { session } = createSession(db, FIXTURE.seed, { keyId: serviceKeyId(db, campaign.promotion.id, NOW), promotionId: campaign.promotion.id, sandbox: false, now: NOW });
  const maker = { campaign, sessionId: session.id, sandbox: false, collectorId: 1, packId: 1, country: 'DE', termsVersion: null };
  storeEntry(db, maker, NOW, { prize: campaign.prizes[0]!, delivery: 'delayed', code: 'AM-1' });
  const due = NOW + campaign.promotion.content.delivery_delay_seconds * 1000;
  const states = (at: number) => [findProductionEntryForPack(db, campaign.promotion.id, 1, at)!.delivery_state, findEntryForSession(db, session.id, at)!.delivery_state];
  expect(states(due - 1)).toEqual(['processing', 'processing']);
  expect(states(due)).toEqual(['delivered', 'delivered']);
  expect(db.prepare('SELECT delivery_state FROM entries').pluck().all()).toEqual(['processing']);
});
