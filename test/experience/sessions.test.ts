import { describe, expect, it } from 'vitest';
import type { PromotionContent } from '../../emulator/fixture.js';
import { createAgencyKey } from '../../emulator/store/keys.js';
import { getPromotion, updatePromotionContent } from '../../emulator/store/promotions.js';
import { storedRows } from '../support/stored.js';
import { productionSession, testWorld } from '../world.js';

describe('consumer sessions (spec §2.3, §5 rule 2)', () => {
  it('lasts 30 minutes: valid at 29:59, 401 invalid_session at 30:00', async () => {
    const t = testWorld();
    const token = await productionSession(t);
    t.world.clock.advance(30 * 60_000 - 1_000);
    expect((await t.experience('get', '/session', t.env.production_key, token)).status).toBe(200);
    t.world.clock.advance(1_000);
    const res = await t.experience('get', '/session', t.env.production_key, token);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_session');
  });

  it('is valid only with the key that exchanged it', async () => {
    const t = testWorld();
    const token = await productionSession(t);
    const { secret } = createAgencyKey(t.world.db, t.world.seed, { promotionId: 1, environment: 'production', now: t.world.clock.now() });
    const res = await t.experience('get', '/session', secret, token);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_session');
  });

  it('a sandbox session is refused with the production key', async () => {
    const t = testWorld();
    const created = await t.experience('post', '/sessions').send({ scenario: 'won' });
    const res = await t.experience('post', '/session/entry', t.env.production_key, created.body.session_token).send({});
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_session');
  });

  it('refuses a missing or unknown session token with 401 invalid_session', async () => {
    const t = testWorld();
    expect((await t.experience('get', '/session', t.env.production_key)).body.error).toBe('invalid_session');
    expect((await t.experience('get', '/session', t.env.production_key, 'sess_unknown')).body.error).toBe('invalid_session');
  });

  it('returns the session token on creation only, never on the session read', async () => {
    const t = testWorld();
    const token = await productionSession(t);
    const read = await t.experience('get', '/session', t.env.production_key, token);
    expect(read.body.session_token).toBeUndefined();
    expect(read.text).not.toContain(token);
  });

  it('the session read returns refreshed terms after the brand edits them', async () => {
    const t = testWorld();
    const token = await productionSession(t);
    const { db } = t.world;
    updatePromotionContent(db, t.env.promotion_id, JSON.parse(JSON.stringify(getPromotion(db, t.env.promotion_id).content).replaceAll('de-2026-03', 'de-2026-11')) as PromotionContent);
    const read = await t.experience('get', '/session', t.env.production_key, token);
    expect(read.body.terms.version).toBe('de-2026-11');
  });

  it('stores only a hash of the session token', async () => {
    const t = testWorld();
    const token = await productionSession(t);
    expect(JSON.stringify(storedRows(t.world.db, 'sessions'))).not.toContain(token);
  });
});
