/**
 * The core schema: the world, keys, codes, sessions, entries, scans, coverage, interactions.
 * Times are integer milliseconds of the virtual clock.
 */
export const CORE_SCHEMA = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
  CREATE TABLE companies (id INTEGER PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE);
  CREATE TABLE brands (
    id INTEGER PRIMARY KEY, company_id INTEGER NOT NULL REFERENCES companies(id),
    slug TEXT NOT NULL UNIQUE, name TEXT NOT NULL, prefix TEXT NOT NULL);
  CREATE TABLE skus (
    id INTEGER PRIMARY KEY, brand_id INTEGER NOT NULL REFERENCES brands(id),
    name TEXT NOT NULL, prefix TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL);
  CREATE TABLE batches (
    id INTEGER PRIMARY KEY, sku_id INTEGER NOT NULL REFERENCES skus(id), quantity INTEGER NOT NULL,
    purpose TEXT NOT NULL, state TEXT NOT NULL, created_at INTEGER NOT NULL);
  CREATE TABLE units (
    id INTEGER PRIMARY KEY, batch_id INTEGER NOT NULL REFERENCES batches(id), sku_id INTEGER NOT NULL REFERENCES skus(id),
    code TEXT NOT NULL UNIQUE, kind TEXT NOT NULL CHECK (kind IN ('production', 'test', 'preview')),
    recalled INTEGER NOT NULL DEFAULT 0);
  CREATE TABLE collectors (
    id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, country TEXT, city TEXT,
    tester INTEGER NOT NULL DEFAULT 0, joined_at INTEGER NOT NULL);
  CREATE TABLE promotions (
    id INTEGER PRIMARY KEY, brand_id INTEGER NOT NULL REFERENCES brands(id),
    content TEXT NOT NULL, budget_spent REAL NOT NULL DEFAULT 0,
    routing_paused INTEGER NOT NULL DEFAULT 0, approved_at INTEGER,
    preview_callback TEXT, production_callback TEXT);
  CREATE TABLE prizes (
    id INTEGER PRIMARY KEY, promotion_id INTEGER NOT NULL REFERENCES promotions(id), position INTEGER NOT NULL,
    name TEXT NOT NULL, odds REAL NOT NULL, stock INTEGER NOT NULL, face_value REAL NOT NULL,
    reward_type TEXT NOT NULL, tier TEXT NOT NULL, delivery TEXT NOT NULL, redemption_url TEXT,
    UNIQUE (promotion_id, position));
  CREATE TABLE agency_keys (
    id INTEGER PRIMARY KEY, promotion_id INTEGER NOT NULL REFERENCES promotions(id),
    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
    key_hash TEXT NOT NULL UNIQUE, masked TEXT NOT NULL,
    created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, revoked_at INTEGER);
  CREATE TABLE auth_codes (
    id INTEGER PRIMARY KEY, code_hash TEXT NOT NULL UNIQUE, promotion_id INTEGER NOT NULL,
    collector_id INTEGER NOT NULL REFERENCES collectors(id), unit_id INTEGER NOT NULL REFERENCES units(id),
    country TEXT, code_challenge TEXT NOT NULL, expires_at INTEGER NOT NULL,
    consumed_at INTEGER, session_id INTEGER);
  CREATE TABLE sessions (
    id INTEGER PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, key_id INTEGER NOT NULL REFERENCES agency_keys(id),
    promotion_id INTEGER NOT NULL, sandbox INTEGER NOT NULL, scenario TEXT,
    collector_id INTEGER, unit_id INTEGER, country TEXT,
    created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, revoked_at INTEGER);
  CREATE TABLE entries (
    id INTEGER PRIMARY KEY, promotion_id INTEGER NOT NULL, session_id INTEGER NOT NULL REFERENCES sessions(id),
    sandbox INTEGER NOT NULL, collector_id INTEGER, unit_id INTEGER, country TEXT,
    state TEXT NOT NULL CHECK (state IN ('won', 'lost', 'pending', 'failed')),
    prize_id INTEGER, prize_name TEXT, codes TEXT NOT NULL DEFAULT '[]', redemption_url TEXT,
    delivery_state TEXT NOT NULL, delivery_due_at INTEGER, delivery_outcome TEXT,
    terms_version TEXT, created_at INTEGER NOT NULL);
  CREATE UNIQUE INDEX entries_one_per_pack ON entries (promotion_id, unit_id) WHERE sandbox = 0;
  CREATE INDEX entries_by_session ON entries (session_id);
  CREATE TABLE scans (
    id INTEGER PRIMARY KEY, unit_id INTEGER NOT NULL REFERENCES units(id), brand_id INTEGER NOT NULL,
    collector_id INTEGER, tester INTEGER NOT NULL DEFAULT 0, country TEXT, city TEXT, device_type TEXT,
    scanned_at INTEGER NOT NULL);
  CREATE INDEX scans_by_brand_time ON scans (brand_id, scanned_at);
  CREATE TABLE sandbox_coverage (
    key_id INTEGER NOT NULL REFERENCES agency_keys(id), scenario TEXT NOT NULL,
    session_created_at INTEGER, entry_submitted_at INTEGER, PRIMARY KEY (key_id, scenario));
  CREATE TABLE interactions (
    id INTEGER PRIMARY KEY, at INTEGER NOT NULL, key_id INTEGER, session_id INTEGER,
    method TEXT NOT NULL, path TEXT NOT NULL, status INTEGER NOT NULL, body TEXT);
  `;

/** The interaction log keeps each answer's error code too (issue 15); older rows have none. */
export const INTERACTION_ERROR_SCHEMA = `ALTER TABLE interactions ADD COLUMN error TEXT;`;

/**
 * Round three's bounds: the control plane's pack lists (`/_emulator/env`) read a promotion's tester,
 * preview and recalled packs through small partial indexes instead of scanning every unit (5M
 * after a few large batches), and the interaction log is trimmed per key (store/interactions.ts).
 */
export const BOUNDS_SCHEMA = `
  CREATE INDEX units_tester_by_sku ON units (sku_id) WHERE kind = 'test';
  CREATE INDEX units_preview_by_sku ON units (sku_id) WHERE kind = 'preview';
  CREATE INDEX units_recalled_by_sku ON units (sku_id) WHERE recalled = 1;
  CREATE INDEX interactions_by_key ON interactions (key_id, id);
`;
