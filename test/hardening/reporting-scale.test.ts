/**
 * Issue 14, defect 5: after `seed --scans 1000000`, `collectors?limit=1000` blocked the event loop
 * for 1.8 s, as every collectors read aggregated every scan of the brand; and a deep `offset` on the
 * scan list joined every skipped row. Tests never time anything (`npm run bench` measures the
 * reads: bench/reporting-reads.ts); they check the shape of the work instead: the query plans,
 * and that the audience counts kept as scans arrive always equal a recount from the scans.
 * @see spec §2.8, §4.4
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../emulator/logger.js';
import { openWorld } from '../../emulator/server.js';
import { type Db, openDb } from '../../emulator/store/db.js';
import { AUDIENCE_SCHEMA } from '../../emulator/store/schema-audience.js';
import { MIGRATIONS } from '../../emulator/store/schema.js';
import { insertScan } from '../../emulator/store/scans.js';
import { listAudience } from '../../emulator/store/audience.js';
import { listCollectors } from '../../emulator/store/collectors.js';
import { listCompanies, listCompanyBrands } from '../../emulator/store/companies.js';
import { listSkus } from '../../emulator/store/skus.js';
import { unitsOfSku } from '../../emulator/store/units.js';
import { queryPlan, recountAudience, rewindSchema } from '../support/raw-storage.js';
import { DEFAULT_FIXTURE, type TestWorld, testWorld } from '../world.js';
import { assertProperty } from './support/fuzz.js';

/** The SQL of every statement a request runs. */
function statementsOf(db: Db): { take(): string[] } {
  let seen: string[] = [];
  const prepare = db.prepare;
  db.prepare = ((sql: string) => {
    seen.push(sql);
    return prepare.call(db, sql);
  }) as Db['prepare'];
  return {
    take() {
      const taken = seen;
      seen = [];
      return taken;
    },
  };
}

/** The query plan of a statement, one line per step; none for what is not a query. */
function planOf(db: Db, sql: string): string[] {
  return /^\s*SELECT\b/i.test(sql) ? queryPlan(db, sql) : [];
}

const reporting = (t: TestWorld, path: string) => t.api.get(`/api/v1/brands/alpenmilch${path}`).set('Authorization', `Bearer ${t.env.reporting_token}`);

/** The counts kept for every brand's audience, as the store reads them, in the recount's order. */
function kept(db: Db) {
  return allBrands(db)
    .flatMap((brand) => listAudience(db, brand.id, { limit: 1_000_000, offset: 0 }).map((member) => ({ brand_id: brand.id, collector_id: member.id, scans: member.scans, packs: member.packs, joined_at: member.joined_at })))
    .sort((a, b) => a.brand_id - b.brand_id || a.collector_id - b.collector_id);
}

const allBrands = (db: Db) => listCompanies(db).flatMap((company) => listCompanyBrands(db, company.id));

describe('reporting reads at scale (issue 14, defect 5)', () => {
  it('reads the collectors list and a collector from the kept audience counts, never aggregating the brand\'s scans', async () => {
    const t = testWorld();
    const sql = statementsOf(t.world.db);
    expect((await reporting(t, '/collectors?limit=1000')).status).toBe(200);
    const listSql = sql.take();
    expect(listSql.filter((text) => /(?:FROM|JOIN)\s+scans\b/.test(text)), 'statements reading the scans table').toEqual([]);
    const listPlans = listSql.flatMap((text) => planOf(t.world.db, text));
    expect(listPlans.some((step) => /USING INDEX audience_members_newest \(brand_id=\?\)/.test(step)), listPlans.join('\n')).toBe(true);
    expect(listPlans.filter((step) => /TEMP B-TREE/.test(step)), listPlans.join('\n')).toEqual([]);

    const id = listAudience(t.world.db, 1, { limit: 1_000_000, offset: 0 }).reduce((most, member) => (member.scans > most.scans ? member : most)).id;
    sql.take();
    expect((await reporting(t, `/collectors/${id}`)).status).toBe(200);
    const detailPlans = sql.take().flatMap((text) => planOf(t.world.db, text));
    expect(detailPlans.some((step) => /USING PRIMARY KEY \(brand_id=\? AND collector_id=\?\)/.test(step)), detailPlans.join('\n')).toBe(true);
    // The last 20 scans come from the collector's index, newest first, without a sort.
    expect(detailPlans.filter((step) => /^SCAN (?:s|scans)\b|TEMP B-TREE FOR ORDER BY/.test(step)), detailPlans.join('\n')).toEqual([]);
  });

  it('picks a scan page, however deep its offset, from the covering index before joining', async () => {
    const t = testWorld();
    const sql = statementsOf(t.world.db);
    expect((await reporting(t, '/scans?limit=100&offset=1000')).status).toBe(200);
    const plans = sql.take().flatMap((text) => planOf(t.world.db, text));
    expect(plans.some((step) => /USING COVERING INDEX scans_production_by_brand_time \(brand_id=\? AND scanned_at>\? AND scanned_at<\?\)/.test(step)), plans.join('\n')).toBe(true);
  });

  it('keeps the audience counts equal to a recount from the scans, whatever scans arrive', async () => {
    const t = testWorld({ fixture: (fixture) => ({ ...fixture, history: { scans: 200 } }) });
    const { db } = t.world;
    expect(kept(db)).toEqual(recountAudience(db));
    const brands = allBrands(db).map((brand) => brand.id);
    const units = brands.flatMap((brand) => listSkus(db, brand)).flatMap((sku) => unitsOfSku(db, sku.id)).map((unit) => unit.id);
    const collectors = listCollectors(db).map((collector) => collector.id);
    const scan = fc.record({
      unit: fc.constantFrom(...units),
      brand: fc.constantFrom(...brands),
      collector: fc.option(fc.constantFrom(...collectors)),
      tester: fc.boolean(),
      at: fc.integer({ min: -400 * 86_400_000, max: 400 * 86_400_000 }),
    });
    await assertProperty(
      fc.asyncProperty(fc.array(scan, { maxLength: 30 }), async (scans) => {
        for (const one of scans) {
          insertScan(db, { unitId: one.unit, brandId: one.brand, collectorId: one.collector, tester: one.tester, country: 'DE', city: null, deviceType: 'mobile', scannedAt: t.world.clock.now() + one.at });
        }
        expect(kept(db)).toEqual(recountAudience(db));
      }),
      60,
    );
    await t.api.post('/_emulator/seed').send({ scans: 500 }).expect(200);
    expect(kept(db)).toEqual(recountAudience(db));
    await t.api.post('/_emulator/reset').type('json').send().expect(200);
    expect(kept(db)).toEqual(recountAudience(db));
  });

  it('counts in the scans of a data folder made before the counts were kept, once, when it opens', () => {
    const folder = mkdtempSync(join(tmpdir(), 'emulator-audience-'));
    try {
      const logger = createLogger('emulator', { level: 'silent' });
      const world = openWorld({ fixture: { ...DEFAULT_FIXTURE, history: { scans: 500 } }, data: folder, logger });
      const counted = kept(world.db);
      expect(counted.length).toBeGreaterThan(0);
      // As an older emulator left it: the scans, without the audience tables (nor what later migrations added).
      rewindSchema(world.db, MIGRATIONS.indexOf(AUDIENCE_SCHEMA), 'DROP TABLE audience_members; DROP TABLE audience_packs; ALTER TABLE interactions DROP COLUMN error; DROP INDEX units_tester_by_sku; DROP INDEX units_preview_by_sku; DROP INDEX units_recalled_by_sku; DROP INDEX interactions_by_key; ALTER TABLE sink_events DROP COLUMN answered');
      world.db.close();
      const reopened = openDb(join(folder, 'emulator.sqlite'));
      expect(kept(reopened)).toEqual(counted);
      expect(kept(reopened)).toEqual(recountAudience(reopened));
      reopened.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
