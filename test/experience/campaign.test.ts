import { describe, expect, it } from 'vitest';
import { testWorld } from '../world.js';

describe('GET /campaign (spec §2.2, §4.1)', () => {
  it('returns every field of §2.2 for a sandbox key', async () => {
    const t = testWorld();
    const res = await t.experience('get', '/campaign');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      campaign: {
        id: 1,
        name: 'Spring Instant Win',
        dates: { start: '2026-01-01T00:00:00Z', end: '2027-06-30T23:59:59Z' },
        mechanic: 'instant_win',
        brand: { name: 'Alpenmilch', slug: 'alpenmilch' },
        copy: expect.objectContaining({ headline: expect.any(String), body: expect.any(String) }),
        prizes: [{ name: '5 € voucher' }, { name: 'Concert tickets for two' }, { name: 'Alpine picnic set' }, { name: 'Weekend in the Alps' }],
        rewards_path: '/rewards',
      },
      environment: 'sandbox',
      authorize_url: 'http://127.0.0.1:4010/authorize',
      sandbox_scenarios: ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered'],
    });
  });

  it('names the production environment for a production key', async () => {
    const t = testWorld();
    const res = await t.experience('get', '/campaign', t.env.production_key);
    expect(res.body.environment).toBe('production');
  });

  it('answers the promotion as it stands: an edit of its name, a prize or its brand shows at once', async () => {
    const t = testWorld();
    expect((await t.experience('get', '/campaign')).body.campaign.name).toBe('Spring Instant Win');
    t.world.db.prepare("UPDATE promotions SET content = json_set(content, '$.name', 'Summer Instant Win') WHERE id = 1").run();
    expect((await t.experience('get', '/campaign')).body.campaign.name).toBe('Summer Instant Win');
    t.world.db.prepare("UPDATE prizes SET name = 'Ten € voucher' WHERE promotion_id = 1 AND position = 0").run();
    t.world.db.prepare("UPDATE brands SET name = 'Bergmilch' WHERE id = (SELECT brand_id FROM promotions WHERE id = 1)").run();
    const { campaign } = (await t.experience('get', '/campaign', t.env.production_key)).body;
    expect([campaign.prizes[0].name, campaign.brand.name]).toEqual(['Ten € voucher', 'Bergmilch']);
    expect((await t.experience('get', '/campaign')).body.campaign.brand.name).toBe('Bergmilch');
  });

  it('never exposes customers, pool codes, draw seeds, odds, stock or credentials', async () => {
    const t = testWorld();
    const text = (await t.experience('get', '/campaign')).text;
    for (const secret of [t.world.seed, t.env.reporting_token!, t.env.production_key!, t.env.sandbox_key!, ...t.env.collectors.map((c) => c.email), ...t.env.packs.map((p) => p.code)]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/"(odds|stock|budget|seed|email|customers|face_value)"/);
  });

  it('sends no CORS headers: every call must come from the agency server (spec §1)', async () => {
    const t = testWorld();
    const res = await t.experience('get', '/campaign').set('Origin', 'https://agency.example');
    expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    const preflight = await t.api.options('/api/experience/v1/campaign').set('Origin', 'https://agency.example').set('Access-Control-Request-Method', 'GET');
    expect(Object.keys(preflight.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});
