/**
 * Webhooks: endpoints, the event outbox, one delivery per event and endpoint, and every attempt
 * with its response. An endpoint's signing secret is never stored, only its serial: the secret
 * derives from the seed and the serial, like agency keys.
 */
import { cached } from '../fast-path/cache.js';
import type { Db } from './db.js';

export const WEBHOOK_EVENTS = ['scan.processed', 'activation.entered', 'batch.generated', 'batch.export_ready'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface Endpoint {
  id: number;
  /** Absolute, or a path on the emulator itself (a built-in sink), resolved against the base URL when sending. */
  url: string;
  events: WebhookEvent[];
  secret_serial: number;
  created_at: number;
  removed_at: number | null;
}

type EndpointRow = Omit<Endpoint, 'events'> & { events: string };

const fromRow = (row: EndpointRow): Endpoint => ({ ...row, events: JSON.parse(row.events) as WebhookEvent[] });
const ENDPOINT_COLUMNS = 'id, url, events, secret_serial, created_at, removed_at';

export function createEndpoint(db: Db, input: { url: string; events: WebhookEvent[]; secretSerial: number; now: number }): Endpoint {
  const row = db
    .prepare(`INSERT INTO webhook_endpoints (url, events, secret_serial, created_at) VALUES (?, ?, ?, ?) RETURNING ${ENDPOINT_COLUMNS}`)
    .get(input.url, JSON.stringify(input.events), input.secretSerial, input.now) as EndpointRow;
  return fromRow(row);
}

export function countEndpoints(db: Db): number {
  return db.prepare('SELECT count(*) FROM webhook_endpoints WHERE removed_at IS NULL').pluck().get() as number;
}

/** Endpoints in use, oldest first: every production entry and scan asks, so the list is cached. */
export function listEndpoints(db: Db): readonly Endpoint[] {
  return cached(db, 'webhooks', 'in use', () =>
    Object.freeze((db.prepare(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE removed_at IS NULL ORDER BY id`).all() as EndpointRow[]).map((row) => Object.freeze(fromRow(row)))));
}

/** Removed endpoints too: a sink still verifies deliveries signed before its endpoint was removed. */
export function findEndpoint(db: Db, id: number): Endpoint | undefined {
  const row = db.prepare(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ?`).get(id) as EndpointRow | undefined;
  return row && fromRow(row);
}

/** Stops deliveries to the endpoint; its deliveries and attempts stay readable. */
export function removeEndpoint(db: Db, id: number, now: number): boolean {
  return db.prepare('UPDATE webhook_endpoints SET removed_at = ? WHERE id = ? AND removed_at IS NULL').run(now, id).changes === 1;
}

export function insertEvent(db: Db, event: { publicId: string; type: WebhookEvent; brandId: number; occurredAt: number; body: string }): number {
  return Number(
    db.prepare('INSERT INTO webhook_events (public_id, type, brand_id, occurred_at, body) VALUES (?, ?, ?, ?, ?)')
      .run(event.publicId, event.type, event.brandId, event.occurredAt, event.body).lastInsertRowid,
  );
}

export function insertDelivery(db: Db, delivery: { publicId: string; eventId: number; endpointId: number; now: number; replayOf?: string }): void {
  db.prepare(`INSERT INTO webhook_deliveries (public_id, event_id, endpoint_id, state, next_attempt_at, replay_of, created_at)
    VALUES (?, ?, ?, 'pending', ?, ?, ?)`).run(delivery.publicId, delivery.eventId, delivery.endpointId, delivery.now, delivery.replayOf ?? null, delivery.now);
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  id: number;
  public_id: string;
  event_id: number;
  event_public_id: string;
  type: WebhookEvent;
  body: string;
  endpoint_id: number;
  url: string;
  secret_serial: number;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: number | null;
  replay_of: string | null;
  created_at: number;
}

const SELECT_DELIVERY = `SELECT d.id, d.public_id, d.event_id, ev.public_id AS event_public_id, ev.type, ev.body, d.endpoint_id, en.url,
    en.secret_serial, d.state, d.attempts, d.next_attempt_at, d.replay_of, d.created_at
  FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id JOIN webhook_endpoints en ON en.id = d.endpoint_id`;

/**
 * The oldest due delivery of an endpoint in use, if any: each endpoint gets its events in order
 * (retries aside), and one endpoint's backlog never holds up another. One indexed lookup.
 */
export function nextDueDelivery(db: Db, endpointId: number, now: number): Delivery | undefined {
  return db.prepare(`${SELECT_DELIVERY} WHERE d.endpoint_id = ? AND d.state = 'pending' AND d.next_attempt_at <= ? AND en.removed_at IS NULL ORDER BY d.id LIMIT 1`)
    .get(endpointId, now) as Delivery | undefined;
}

export function findDelivery(db: Db, publicId: string): Delivery | undefined {
  return db.prepare(`${SELECT_DELIVERY} WHERE d.public_id = ?`).get(publicId) as Delivery | undefined;
}

/** How many deliveries are in this state, over every endpoint. */
export function countDeliveries(db: Db, state: DeliveryState): number {
  return db.prepare('SELECT count(*) FROM webhook_deliveries WHERE state = ?').pluck().get(state) as number;
}

/** Newest first, optionally of one endpoint. */
export function listDeliveries(db: Db, filter: { endpointId?: number; limit: number }): Delivery[] {
  const where = filter.endpointId === undefined ? '' : 'WHERE d.endpoint_id = ?';
  const params = filter.endpointId === undefined ? [filter.limit] : [filter.endpointId, filter.limit];
  return db.prepare(`${SELECT_DELIVERY} ${where} ORDER BY d.id DESC LIMIT ?`).all(...params) as Delivery[];
}

export interface Attempt {
  number: number;
  at: number;
  /** The response status; null when no response came (refused, timed out). */
  status: number | null;
  error: string | null;
  /** The start of the response body. */
  response: string | null;
  duration_ms: number;
}

export function listAttempts(db: Db, deliveryId: number): Attempt[] {
  return db.prepare('SELECT number, at, status, error, response, duration_ms FROM webhook_attempts WHERE delivery_id = ? ORDER BY number').all(deliveryId) as Attempt[];
}

/** Records an attempt and where the delivery goes next, in one transaction. */
export function recordAttempt(db: Db, deliveryId: number, attempt: Attempt, next: { state: DeliveryState; nextAttemptAt: number | null }): void {
  db.transaction(() => {
    db.prepare('INSERT INTO webhook_attempts (delivery_id, number, at, status, error, response, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(deliveryId, attempt.number, attempt.at, attempt.status, attempt.error, attempt.response, attempt.duration_ms);
    db.prepare('UPDATE webhook_deliveries SET state = ?, attempts = ?, next_attempt_at = ? WHERE id = ?').run(next.state, attempt.number, next.nextAttemptAt, deliveryId);
  })();
}
