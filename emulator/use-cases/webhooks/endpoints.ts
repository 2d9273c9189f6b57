/**
 * The webhook endpoints the emulator sends to, and its built-in sinks (each an endpoint of its
 * own): added within the cap, removed, a sink's answer set; deliveries read and replayed.
 */
import type { Context } from '../../context.js';
import { nextSerial } from '../../store/db.js';
import { type Sink, createSink, findSink, setSinkResponse } from '../../store/sinks.js';
import {
  type Attempt, type Delivery, type Endpoint, WEBHOOK_EVENTS, type WebhookEvent,
  countEndpoints, createEndpoint, findDelivery, listAttempts, listDeliveries, removeEndpoint,
} from '../../store/webhooks.js';
import { type Refused, isRefused, refused } from '../../wire-contract.js';

/** Endpoints in use at once, sinks included: every event is one delivery per endpoint. */
export const MAX_ENDPOINTS = 100;

/** An endpoint added, with the serial its secret derives from (shown once, in the answer). */
export interface AddedEndpoint {
  endpoint: Endpoint;
  secretSerial: number;
}

/** A delivery with every attempt made at it. */
export interface DeliveryRecord {
  delivery: Delivery;
  attempts: Attempt[];
}

export function addEndpoint(ctx: Context, input: { url: string; events?: WebhookEvent[] }): AddedEndpoint | Refused<'limit_reached'> {
  if (countEndpoints(ctx.db) >= MAX_ENDPOINTS) return refused('limit_reached');
  const secretSerial = nextSerial(ctx.db, 'webhook_secret');
  return { endpoint: createEndpoint(ctx.db, { url: input.url, events: input.events ?? [...WEBHOOK_EVENTS], secretSerial, now: ctx.clock.now() }), secretSerial };
}

export type SinkRefusal = 'limit_reached' | 'name_taken';

/** A sink, and the endpoint that delivers to it, made together or not at all. */
export function addSink(ctx: Context, input: { name: string; events?: WebhookEvent[]; respond_with?: number }): { sink: Sink; added: AddedEndpoint } | Refused<SinkRefusal> {
  if (findSink(ctx.db, input.name)) return refused('name_taken');
  return ctx.db.transaction((): { sink: Sink; added: AddedEndpoint } | Refused<SinkRefusal> => {
    const added = addEndpoint(ctx, { url: `/_emulator/sink/${input.name}`, events: input.events });
    if (isRefused(added)) return added;
    return { sink: createSink(ctx.db, { name: input.name, endpointId: added.endpoint.id, respondWith: input.respond_with ?? 200, now: ctx.clock.now() }), added };
  })();
}

/** `id` is undefined when the path names no id at all. */
export function removeWebhookEndpoint(ctx: Context, id: number | undefined): { id: number } | Refused<'not_found'> {
  return id !== undefined && removeEndpoint(ctx.db, id, ctx.clock.now()) ? { id } : refused('not_found');
}

export function answerSinkWith(ctx: Context, name: string, status: number): Sink | Refused<'not_found'> {
  return (findSink(ctx.db, name) && setSinkResponse(ctx.db, name, status)) || refused('not_found');
}

export function listDeliveryRecords(ctx: Context, filter: { endpointId?: number; limit: number }): DeliveryRecord[] {
  return listDeliveries(ctx.db, filter).map((delivery) => withAttempts(ctx, delivery));
}

export function readDelivery(ctx: Context, id: string): DeliveryRecord | Refused<'not_found'> {
  const delivery = findDelivery(ctx.db, id);
  return delivery ? withAttempts(ctx, delivery) : refused('not_found');
}

/** A new delivery of the same envelope to the same endpoint; `enqueue` makes it and says its id. */
export function replayDelivery(ctx: Context, id: string, enqueue: (delivery: Delivery) => string): DeliveryRecord | Refused<'not_found'> {
  const delivery = findDelivery(ctx.db, id);
  return delivery ? withAttempts(ctx, findDelivery(ctx.db, enqueue(delivery))!) : refused('not_found');
}

function withAttempts(ctx: Context, delivery: Delivery): DeliveryRecord {
  return { delivery, attempts: listAttempts(ctx.db, delivery.id) };
}
