/**
 * The reporting side's schema: batch progress, redemptions, indexes for the reporting reads,
 * and webhooks (endpoints, the event outbox, deliveries, attempts, built-in sinks).
 * Times are integer milliseconds of the virtual clock.
 */
export const REPORTING_SCHEMA = `
  ALTER TABLE batches ADD COLUMN generated INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX units_by_batch ON units (batch_id);
  CREATE INDEX scans_production_by_brand_time ON scans (brand_id, scanned_at) WHERE tester = 0;
  CREATE INDEX scans_production_by_collector ON scans (brand_id, collector_id, scanned_at) WHERE tester = 0;
  CREATE INDEX entries_production_by_collector ON entries (collector_id) WHERE sandbox = 0;
  CREATE TABLE redemptions (
    entry_id INTEGER PRIMARY KEY REFERENCES entries(id), redeemed_at INTEGER NOT NULL,
    channel TEXT NOT NULL CHECK (channel IN ('online', 'in_store')));
  CREATE TABLE webhook_endpoints (
    id INTEGER PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL,
    secret_serial INTEGER NOT NULL, created_at INTEGER NOT NULL, removed_at INTEGER);
  CREATE TABLE webhook_events (
    id INTEGER PRIMARY KEY, public_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, brand_id INTEGER NOT NULL, occurred_at INTEGER NOT NULL, body TEXT NOT NULL);
  CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY, public_id TEXT NOT NULL UNIQUE, event_id INTEGER NOT NULL REFERENCES webhook_events(id),
    endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints(id),
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER, replay_of TEXT, created_at INTEGER NOT NULL);
  CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, id) WHERE state = 'pending';
  CREATE TABLE webhook_attempts (
    id INTEGER PRIMARY KEY, delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries(id), number INTEGER NOT NULL,
    at INTEGER NOT NULL, status INTEGER, error TEXT, response TEXT, duration_ms INTEGER NOT NULL);
  CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id);
  CREATE TABLE sinks (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints(id),
    respond_with INTEGER NOT NULL DEFAULT 200, created_at INTEGER NOT NULL);
  CREATE TABLE sink_events (
    id INTEGER PRIMARY KEY, sink_id INTEGER NOT NULL REFERENCES sinks(id), received_at INTEGER NOT NULL,
    event TEXT, delivery TEXT, verified INTEGER NOT NULL, problem TEXT, body TEXT NOT NULL);
  CREATE INDEX sink_events_by_sink ON sink_events (sink_id);
  `;

/** What a sink shows of each delivery: the headers it received and the signature's verdict. */
export const SINK_HEADERS_SCHEMA = `
  ALTER TABLE sink_events ADD COLUMN headers TEXT NOT NULL DEFAULT '{}';
  ALTER TABLE sink_events ADD COLUMN verdict TEXT NOT NULL DEFAULT 'invalid' CHECK (verdict IN ('valid', 'invalid', 'too_old'));
  UPDATE sink_events SET verdict = CASE WHEN verified = 1 THEN 'valid' WHEN problem LIKE 't is more than %' THEN 'too_old' ELSE 'invalid' END;
  `;

/** The status each sink answered a delivery with (NULL for those kept before it was recorded). */
export const SINK_ANSWER_SCHEMA = `
  ALTER TABLE sink_events ADD COLUMN answered INTEGER;
  `;
