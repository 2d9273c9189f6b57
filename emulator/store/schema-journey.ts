/**
 * Tables of the browser journey and the brand's console: request tokens, collectors' browser
 * sign-ins, the approval history, and the service's own key that hosted-page sessions hang on.
 */
export const JOURNEY_SCHEMA = `
  CREATE TABLE request_tokens (
    id INTEGER PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, promotion_id INTEGER NOT NULL REFERENCES promotions(id),
    collector_id INTEGER NOT NULL REFERENCES collectors(id), unit_id INTEGER NOT NULL REFERENCES units(id),
    country TEXT, callback_url TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, consumed_at INTEGER);
  CREATE TABLE browser_sessions (
    id INTEGER PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, collector_id INTEGER NOT NULL REFERENCES collectors(id),
    created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
  CREATE TABLE approval_history (
    id INTEGER PRIMARY KEY, promotion_id INTEGER NOT NULL REFERENCES promotions(id),
    action TEXT NOT NULL CHECK (action IN ('approved', 'cleared', 'paused', 'resumed')), reason TEXT, at INTEGER NOT NULL);
  CREATE TABLE service_keys (
    promotion_id INTEGER PRIMARY KEY REFERENCES promotions(id), key_id INTEGER NOT NULL UNIQUE REFERENCES agency_keys(id));
  `;
