import { describe, expect, it } from 'vitest';
import { createAgencyKey, listPromotionKeys, revokeKey } from '../../emulator/store/keys.js';
import { storedRows } from '../support/stored.js';
import { anotherPromotion, testWorld } from '../world.js';

const DAY = 86_400_000;

describe('agency keys (spec §2.1, §5)', () => {
  it('refuses a request without a key with 401 invalid_key', async () => {
    const t = testWorld();
    const res = await t.experience('get', '/campaign', null);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_key', message: expect.stringContaining('Bearer') });
  });

  it('refuses an unknown key with 401 invalid_key', async () => {
    const t = testWorld();
    const res = await t.experience('get', '/campaign', 'pk_sandbox_not-a-real-key');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_key');
  });

  it('refuses a key that is not sent as a Bearer credential', async () => {
    const t = testWorld();
    const res = await t.api.get('/api/experience/v1/campaign').set('Authorization', t.env.sandbox_key!);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_key');
  });

  it('accepts a key on its 89th day and refuses it with 401 key_expired after 90 days', async () => {
    const t = testWorld();
    t.world.clock.advance(90 * DAY - 60_000);
    expect((await t.experience('get', '/campaign')).status).toBe(200);
    t.world.clock.advance(60_000);
    const res = await t.experience('get', '/campaign');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('key_expired');
  });

  it('refuses a revoked key with 401 key_revoked', async () => {
    const t = testWorld();
    const key = listPromotionKeys(t.world.db, t.env.promotion_id).find((candidate) => candidate.environment === 'sandbox')!;
    revokeKey(t.world.db, key.id, t.world.clock.now());
    const res = await t.experience('get', '/campaign');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('key_revoked');
  });

  it('reaches exactly one promotion: a key of another promotion sees only its own campaign', async () => {
    const t = testWorld();
    const { db, seed, clock } = t.world;
    const other = { id: anotherPromotion(t, { slug: 'autumn-draw', name: 'Autumn Draw' }) };
    const key = createAgencyKey(db, seed, { promotionId: other.id, environment: 'sandbox', now: clock.now() });
    const res = await t.experience('get', '/campaign', key.secret);
    expect(res.body.campaign).toMatchObject({ id: other.id, name: 'Autumn Draw', prizes: [{ name: 'Mug' }] });
  });

  it('stores only a hash of each key', () => {
    const t = testWorld();
    const rows = storedRows(t.world.db, 'agency_keys');
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(t.env.sandbox_key);
    expect(dump).not.toContain(t.env.production_key);
  });
});
