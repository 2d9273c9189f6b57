import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../emulator/store/db.js';
import { findKeyBySecret, keySecret, revokeKey } from '../../emulator/store/keys.js';
import { awardPrize, awardState } from '../../emulator/store/promotions.js';
import { getBrand, getPromotion, listPrizes, loadCampaign } from '../../emulator/store/promotions.js';
import { createEndpoint, listEndpoints, removeEndpoint } from '../../emulator/store/webhooks.js';
import { commitTurnTransaction, joinTurnTransaction } from '../../emulator/fast-path/turn-transaction.js';
import { seedWorld } from '../../emulator/store/world.js';
import { DEFAULT_FIXTURE, FROZEN_AT as NOW } from '../world.js';

const seeded = (db: Db) => seedWorld(db, DEFAULT_FIXTURE, DEFAULT_FIXTURE.seed, NOW);
const sandboxSecret = keySecret(DEFAULT_FIXTURE.seed, 'sandbox', 1);

let folders: string[] = [];
afterEach(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders = [];
});

describe('the cache of keys, promotions, prizes, brands and webhook endpoints', () => {
  it('sees a revoked key at once', () => {
    const db = openDb(':memory:', seeded);
    const key = findKeyBySecret(db, sandboxSecret)!;
    expect(key.revoked_at).toBeNull();
    revokeKey(db, key.id, NOW + 1);
    expect(findKeyBySecret(db, sandboxSecret)!.revoked_at).toBe(NOW + 1);
  });

  it('sees any write to the tables it copies, whoever makes it', () => {
    const db = openDb(':memory:', seeded);
    const promotion = getPromotion(db, 1);
    expect(getPromotion(db, 1)).toBe(promotion);
    expect(loadCampaign(db, 1)).toBe(loadCampaign(db, 1));
    db.prepare("UPDATE promotions SET content = json_set(content, '$.name', 'Edited') WHERE id = 1").run();
    expect(getPromotion(db, 1).content.name).toBe('Edited');
    expect(loadCampaign(db, 1).promotion.content.name).toBe('Edited');
    db.prepare("UPDATE prizes SET name = 'Renamed' WHERE position = 0").run();
    expect(listPrizes(db, 1)[0]!.name).toBe('Renamed');
    expect(loadCampaign(db, 1).prizes[0]!.name).toBe('Renamed');
    db.prepare("UPDATE brands SET name = 'Renamed brand' WHERE id = ?").run(promotion.brand_id);
    expect(getBrand(db, promotion.brand_id).name).toBe('Renamed brand');
    expect(loadCampaign(db, 1).brand.name).toBe('Renamed brand');
  });

  it('sees an endpoint added or removed at once', () => {
    const db = openDb(':memory:', seeded);
    const before = listEndpoints(db).length;
    expect(listEndpoints(db)).toBe(listEndpoints(db));
    const endpoint = createEndpoint(db, { url: 'https://agency.example/hooks', events: ['activation.entered'], secretSerial: 99, now: NOW });
    expect(listEndpoints(db).map((each) => each.id)).toContain(endpoint.id);
    expect(removeEndpoint(db, endpoint.id, NOW + 1)).toBe(true);
    expect(listEndpoints(db)).toHaveLength(before);
  });

  it('keeps no copy of what a rolled-back transaction wrote', () => {
    const db = openDb(':memory:', seeded);
    const original = getPromotion(db, 1).content.name;
    expect(() =>
      db.transaction(() => {
        db.prepare("UPDATE promotions SET content = json_set(content, '$.name', 'Never') WHERE id = 1").run();
        expect(getPromotion(db, 1).content.name).toBe('Never');
        throw new Error('roll back');
      })(),
    ).toThrow('roll back');
    expect(getPromotion(db, 1).content.name).toBe(original);
  });

  it("copies again once the transaction that wrote has ended, though every read since is in a turn's transaction", () => {
    const db = openDb(':memory:', seeded);
    joinTurnTransaction(db, () => undefined);
    const promotion = getPromotion(db, 1);
    expect(getPromotion(db, 1)).toBe(promotion);
    db.prepare("UPDATE promotions SET content = json_set(content, '$.name', 'In this turn') WHERE id = 1").run();
    expect(getPromotion(db, 1)).not.toBe(getPromotion(db, 1));
    commitTurnTransaction(db);
    joinTurnTransaction(db, () => undefined);
    expect(getPromotion(db, 1).content.name).toBe('In this turn');
    expect(getPromotion(db, 1)).toBe(getPromotion(db, 1));
    commitTurnTransaction(db);
  });

  it('reads stock and budget from the table, not from its copies', () => {
    const db = openDb(':memory:', seeded);
    const promotion = getPromotion(db, 1);
    const prize = listPrizes(db, 1)[0]!;
    const before = awardState(db, promotion, prize);
    expect(awardPrize(db, promotion.id, prize)).toBe(true);
    expect(awardState(db, promotion, prize)).toEqual({ stock: before.stock - 1, budgetLeft: before.budgetLeft - prize.face_value });
    expect(getPromotion(db, 1)).toBe(promotion);
  });

  it("sees another process's writes from the next event-loop turn", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cache-test-'));
    folders.push(folder);
    const path = join(folder, 'emulator.sqlite');
    const db = openDb(path, seeded);
    const other = openDb(path);
    const key = findKeyBySecret(db, sandboxSecret)!;
    revokeKey(other, key.id, NOW + 1);
    await nextTurn();
    expect(findKeyBySecret(db, sandboxSecret)!.revoked_at).toBe(NOW + 1);
    other.close();
    db.close();
  });
});
