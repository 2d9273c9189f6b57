import { describe, expect, it } from 'vitest';
import { SPEC_LIMITS } from '../../emulator/domain/limits.js';
import { testWorld } from '../world.js';

describe('rate limits (spec §8)', () => {
  it('uses the limits of spec §8 by default', () => {
    expect(SPEC_LIMITS).toEqual({ perSession: 60, perKey: 3000, windowMs: 60_000 });
    expect(testWorld().world.config.limits).toEqual(SPEC_LIMITS);
  });

  it('answers the 61st request of a session within a minute with 429 rate_limited and Retry-After', async () => {
    const t = testWorld();
    const token = (await t.experience('post', '/sessions').send({ scenario: 'pending' })).body.session_token;
    for (let i = 0; i < 60; i++) {
      expect((await t.experience('get', '/session', t.env.sandbox_key, token)).status).toBe(200);
    }
    const res = await t.experience('get', '/session', t.env.sandbox_key, token);
    expect(res.status).toBe(429);
    expect(res.body.error).toBe('rate_limited');
    expect(res.headers['retry-after']).toBe('60');
  });

  it('admits the session again once the window has passed on the clock', async () => {
    const t = testWorld();
    const token = (await t.experience('post', '/sessions').send({ scenario: 'won' })).body.session_token;
    for (let i = 0; i < 60; i++) await t.experience('get', '/session', t.env.sandbox_key, token);
    t.world.clock.advance(60_000);
    expect((await t.experience('get', '/session', t.env.sandbox_key, token)).status).toBe(200);
  });

  it('limits each session separately', async () => {
    const t = testWorld();
    const first = (await t.experience('post', '/sessions').send({ scenario: 'won' })).body.session_token;
    const second = (await t.experience('post', '/sessions').send({ scenario: 'won' })).body.session_token;
    for (let i = 0; i < 60; i++) await t.experience('get', '/session', t.env.sandbox_key, first);
    expect((await t.experience('get', '/session', t.env.sandbox_key, second)).status).toBe(200);
  });

  it('answers the 3,001st request of a key within a minute with 429 and Retry-After', async () => {
    const t = testWorld();
    const statuses = new Map<number, number>();
    for (let i = 0; i < 3000; i++) {
      const { status } = await t.experience('get', '/campaign');
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(statuses).toEqual(new Map([[200, 3000]]));
    const res = await t.experience('get', '/campaign');
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.experience('get', '/campaign', t.env.production_key)).status).toBe(200);
    // 3,001 requests one after another: 7 s on a quiet machine, over 30 s beside a busy one.
  }, 120_000);
});
