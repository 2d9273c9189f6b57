/**
 * Each brand's audience, kept as scans arrive (store/audience.ts): a collector's production scans
 * of a brand, the distinct packs among them and the first one. The collectors list and detail read
 * these rows instead of aggregating every scan of the brand (1.8 s at a million scans, issue 14).
 * Scans are never updated, and only a reset deletes them, which empties these tables too. The
 * scans of a data folder made before this migration are counted in once, here.
 */
export const AUDIENCE_SCHEMA = `
  CREATE TABLE audience_members (
    brand_id INTEGER NOT NULL, collector_id INTEGER NOT NULL,
    scans INTEGER NOT NULL, packs INTEGER NOT NULL, joined_at INTEGER NOT NULL,
    PRIMARY KEY (brand_id, collector_id)) WITHOUT ROWID;
  CREATE INDEX audience_members_newest ON audience_members (brand_id, joined_at, collector_id);
  CREATE TABLE audience_packs (
    brand_id INTEGER NOT NULL, collector_id INTEGER NOT NULL, unit_id INTEGER NOT NULL,
    PRIMARY KEY (brand_id, collector_id, unit_id)) WITHOUT ROWID;

  INSERT INTO audience_packs (brand_id, collector_id, unit_id)
    SELECT DISTINCT brand_id, collector_id, unit_id FROM scans WHERE tester = 0 AND collector_id IS NOT NULL;
  INSERT INTO audience_members (brand_id, collector_id, scans, packs, joined_at)
    SELECT brand_id, collector_id, COUNT(*), COUNT(DISTINCT unit_id), MIN(scanned_at) FROM scans
    WHERE tester = 0 AND collector_id IS NOT NULL GROUP BY brand_id, collector_id;

  `;
