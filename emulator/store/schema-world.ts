/**
 * The world of many promotions (issue 13): a promotion's slug, the SKUs whose packs enter it,
 * code-unlock pools, and journeys voided when the brand moves routing. A data folder seeded before
 * this migration keeps its one promotion per brand, which then takes every SKU of its brand.
 */
export const WORLD_SCHEMA = `
  ALTER TABLE promotions ADD COLUMN slug TEXT;
  ALTER TABLE promotions ADD COLUMN covers_rest INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE skus ADD COLUMN promotion_id INTEGER REFERENCES promotions(id);
  UPDATE promotions SET slug = 'promotion-' || id, covers_rest = 1;
  UPDATE skus SET promotion_id = (SELECT min(p.id) FROM promotions p WHERE p.brand_id = skus.brand_id);
  CREATE UNIQUE INDEX promotions_by_slug ON promotions (slug);
  CREATE TABLE pool_codes (
    id INTEGER PRIMARY KEY, promotion_id INTEGER NOT NULL REFERENCES promotions(id), code TEXT NOT NULL UNIQUE,
    unit_id INTEGER REFERENCES units(id));
  CREATE INDEX pool_codes_free ON pool_codes (promotion_id, id) WHERE unit_id IS NULL;
  ALTER TABLE request_tokens ADD COLUMN voided_at INTEGER;
  ALTER TABLE auth_codes ADD COLUMN voided_at INTEGER;
  `;
