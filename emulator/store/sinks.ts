/** Built-in webhook sinks and what they received, kept in SQLite so a restart loses nothing. */
import type { Db } from './db.js';

export interface Sink {
  id: number;
  name: string;
  endpoint_id: number;
  /** The status the sink answers verified deliveries with; set 500 to watch retries. */
  respond_with: number;
  created_at: number;
}

/** The signature's verdict when the delivery arrived (300 s tolerance on the virtual clock). */
export type SinkVerdict = 'valid' | 'invalid' | 'too_old';

export interface SinkEvent {
  id: number;
  received_at: number;
  event: string | null;
  delivery: string | null;
  verified: number;
  verdict: SinkVerdict;
  problem: string | null;
  /** The request's headers as received, a JSON object. */
  headers: string;
  body: string;
  /** The status the sink answered with; null for deliveries kept before it was recorded. */
  answered: number | null;
}

const EVENT_COLUMNS = 'id, received_at, event, delivery, verified, verdict, problem, headers, body, answered';

export function createSink(db: Db, input: { name: string; endpointId: number; respondWith: number; now: number }): Sink {
  return db
    .prepare('INSERT INTO sinks (name, endpoint_id, respond_with, created_at) VALUES (?, ?, ?, ?) RETURNING *')
    .get(input.name, input.endpointId, input.respondWith, input.now) as Sink;
}

export function findSink(db: Db, name: string): Sink | undefined {
  return db.prepare('SELECT * FROM sinks WHERE name = ?').get(name) as Sink | undefined;
}

export function listSinks(db: Db): Array<Sink & { received: number }> {
  return db
    .prepare('SELECT s.*, (SELECT COUNT(*) FROM sink_events e WHERE e.sink_id = s.id) AS received FROM sinks s ORDER BY s.name')
    .all() as Array<Sink & { received: number }>;
}

export function setSinkResponse(db: Db, name: string, respondWith: number): Sink | undefined {
  return db.prepare('UPDATE sinks SET respond_with = ? WHERE name = ? RETURNING *').get(respondWith, name) as Sink | undefined;
}

export function recordSinkEvent(db: Db, sinkId: number, event: Omit<SinkEvent, 'id'>): void {
  db.prepare('INSERT INTO sink_events (sink_id, received_at, event, delivery, verified, verdict, problem, headers, body, answered) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(sinkId, event.received_at, event.event, event.delivery, event.verified, event.verdict, event.problem, event.headers, event.body, event.answered);
}

/** Newest first; with `beforeId`, only those received before it (the next page of a list). */
export function listSinkEvents(db: Db, sinkId: number, limit: number, beforeId = Number.MAX_SAFE_INTEGER): SinkEvent[] {
  return db.prepare(`SELECT ${EVENT_COLUMNS} FROM sink_events WHERE sink_id = ? AND id < ? ORDER BY id DESC LIMIT ?`).all(sinkId, beforeId, limit) as SinkEvent[];
}

/** Those received after `afterId`, oldest first: a cursor that misses none. */
export function sinkEventsAfter(db: Db, sinkId: number, afterId: number, limit: number): SinkEvent[] {
  return db.prepare(`SELECT ${EVENT_COLUMNS} FROM sink_events WHERE sink_id = ? AND id > ? ORDER BY id LIMIT ?`).all(sinkId, afterId, limit) as SinkEvent[];
}
