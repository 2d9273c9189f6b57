/** A code-unlock promotion gives every admitted entry one code from a finite pool (decision 008). */
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../../emulator/fixture.js';
import { freePoolCodes } from '../../emulator/store/code-pool.js';
import { getPromotion, updatePromotionContent } from '../../emulator/store/promotions.js';
import { promotionPackCodes } from '../../emulator/store/units.js';
import { storedRows } from '../support/stored.js';
import { type TestWorld, consentFor, productionSession, promotionEnv, testWorld } from '../world.js';

const SLUG = 'nordkakao-cafe-codes';

/** The promotion with one prize, delivered at once, and a pool of `size` codes. */
const poolOf = (size: number) => (f: Fixture): Fixture => {
  const promotion = f.promotions.find((candidate) => candidate.slug === SLUG)!;
  promotion.prizes = [{ ...promotion.prizes[0]!, odds: 1, stock: size }];
  return f;
};

const freeCodes = (t: TestWorld) => freePoolCodes(t.world.db, promotionEnv(t, SLUG).id);
const poolCodes = (t: TestWorld) => storedRows<{ code: string; unit_id: number | null }>(t.world.db, 'pool_codes');

async function enter(t: TestWorld, packIndex: number, email = 'anna.weber@example.test') {
  const promotion = promotionEnv(t, SLUG);
  const pack = promotionPackCodes(t.world.db, promotion.id, 'production')[packIndex]!;
  const token = await productionSession(t, { promotion, packCode: pack, collectorEmail: email });
  const terms = (await t.experience('get', '/session', promotion.production_key, token)).body.terms;
  return (await t.experience('post', '/session/entry', promotion.production_key, token).send(consentFor(terms)).expect(200)).body.entry;
}

describe('code unlock (spec §1, decision 008)', () => {
  it('seeds a pool of as many codes as its prizes have stock (320 and 80); seeded history takes none of them', () => {
    const t = testWorld();
    expect(freeCodes(t)).toBe(400);
    expect(poolCodes(testWorld({ fixture: poolOf(25) }))).toHaveLength(25);
  });

  it('every admitted entry wins one of its prizes, drawn by their odds: none is lost while the pool lasts', () => {
    const t = testWorld();
    expect(new Set(promotionEnv(t, SLUG).packs.map((pack) => `${pack.outcome}:${pack.settles_as ?? ''}`))).toEqual(new Set(['won:', 'pending:won']));
  });

  it('gives each admitted entry the next code of the pool, a different one each time, and takes it from the pool', async () => {
    const t = testWorld({ fixture: poolOf(400) });
    const codes = [];
    for (let pack = 0; pack < 3; pack++) codes.push((await enter(t, pack)).codes[0]);
    expect(new Set(codes).size).toBe(3);
    expect(codes.every((code) => /^NKCAFE-[A-Z0-9]{10}$/.test(code))).toBe(true);
    expect(freeCodes(t)).toBe(397);
    const handedOut = poolCodes(t).filter((row) => row.unit_id !== null).map((row) => row.code);
    expect(handedOut).toEqual(codes);
  });

  it('a retry returns the same code, never a second one', async () => {
    const t = testWorld();
    const promotion = promotionEnv(t, SLUG);
    const token = await productionSession(t, { promotion, packCode: promotion.packs.find((pack) => pack.outcome === 'won')!.code });
    const terms = (await t.experience('get', '/session', promotion.production_key, token)).body.terms;
    const first = (await t.experience('post', '/session/entry', promotion.production_key, token).send(consentFor(terms))).body.entry;
    const again = (await t.experience('post', '/session/entry', promotion.production_key, token).send(consentFor(terms))).body.entry;
    expect(again.codes).toEqual(first.codes);
    expect(freeCodes(t)).toBe(399);
  });

  it('once the pool is empty, an admitted entry is lost: no code is made up', async () => {
    const t = testWorld({ fixture: poolOf(2) });
    expect((await enter(t, 0)).state).toBe('won');
    expect((await enter(t, 1)).state).toBe('won');
    const third = await enter(t, 2);
    expect(third).toMatchObject({ state: 'lost', codes: [], prize: null });
    expect(freeCodes(t)).toBe(0);
  });

  it('a pool that runs empty while stock remains: the entry is lost, and neither stock nor budget is taken (pool 2, stock raised to 5)', async () => {
    const t = testWorld({ fixture: poolOf(2) });
    const { id } = promotionEnv(t, SLUG);
    const content = structuredClone(getPromotion(t.world.db, id).content);
    content.prizes[0]!.stock = 5;
    updatePromotionContent(t.world.db, id, content);
    const prize = () => storedRows<{ promotion_id: number; stock: number }>(t.world.db, 'prizes').find((row) => row.promotion_id === id)!;
    const spent = () => storedRows<{ id: number; budget_spent: number }>(t.world.db, 'promotions').find((row) => row.id === id)!.budget_spent;
    expect((await enter(t, 0)).state).toBe('won');
    expect((await enter(t, 1)).state).toBe('won');
    expect(prize().stock).toBe(3);
    const budgetSpent = spent();
    const third = await enter(t, 2);
    expect(third).toMatchObject({ state: 'lost', codes: [], prize: null });
    expect(freeCodes(t)).toBe(0);
    expect(prize().stock).toBe(3);
    expect(spent()).toBe(budgetSpent);
  });

  it('sandbox entries are synthetic and take nothing from the pool', async () => {
    const t = testWorld();
    const { sandbox_key: key } = promotionEnv(t, SLUG);
    const session = await t.experience('post', '/sessions', key).send({ scenario: 'won' }).expect(201);
    const entry = (await t.experience('post', '/session/entry', key, session.body.session_token).send({}).expect(200)).body.entry;
    expect(entry.codes).toEqual([expect.stringMatching(/^SANDBOX-/)]);
    expect(freeCodes(t)).toBe(400);
  });
});
