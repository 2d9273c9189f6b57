/** A data folder seeded before issue 13 opens with the new schema: its one promotion per brand takes every SKU of its brand. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openDb, schemaVersion } from '../../emulator/store/db.js';
import { MIGRATIONS } from '../../emulator/store/schema.js';
import { listPromotions } from '../../emulator/store/promotions.js';
import { createSku, listPromotionSkus } from '../../emulator/store/skus.js';
import { findUnitByCode } from '../../emulator/store/units.js';
import { oldDatabase } from '../support/raw-storage.js';

let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

it('maps the SKUs of an older world to its brand\'s promotion and names the promotion', () => {
  dir = mkdtempSync(join(tmpdir(), 'emulator-migration-'));
  const path = join(dir, 'emulator.sqlite');
  oldDatabase(path, 3, `INSERT INTO companies (id, name, token_hash) VALUES (1, 'Co', 'h');
    INSERT INTO brands (id, company_id, slug, name, prefix) VALUES (1, 1, 'alpenmilch', 'Alpenmilch', 'AM');
    INSERT INTO skus (id, brand_id, name, prefix, created_at) VALUES (1, 1, 'Milk', 'AM-CHO', 0), (2, 1, 'Hazelnut', 'AM-HAZ', 0);
    INSERT INTO batches (id, sku_id, quantity, purpose, state, created_at) VALUES (1, 2, 1, 'run', 'export_ready', 0);
    INSERT INTO units (id, batch_id, sku_id, code, kind) VALUES (1, 1, 2, 'AM-HAZ-260420-ABCDE', 'production');
    INSERT INTO promotions (id, brand_id, content) VALUES (1, 1, '{}');`);

  const db = openDb(path);
  expect(schemaVersion(db)).toBe(MIGRATIONS.length);
  expect(listPromotions(db).map(({ id, slug }) => ({ id, slug }))).toEqual([{ id: 1, slug: 'promotion-1' }]);
  // It covers the rest of its brand: a SKU created later enters it too.
  const later = createSku(db, { brandId: 1, name: 'White', prefix: 'AM-WHT', now: 0 })!;
  expect(listPromotionSkus(db, 1).map((sku) => sku.id)).toContain(later.id);
  expect(findUnitByCode(db, 'AM-HAZ-260420-ABCDE')?.promotion_id).toBe(1);
  db.close();
});
