/**
 * The outbox: an event becomes one stored envelope `{id, event, occurred_at, brand, data}` and
 * one pending delivery per subscribed endpoint, in one transaction; `webhooks.enqueued` tells the
 * dispatcher, which sends them.
 * Endpoints receive events from their registration on, never earlier ones.
 * @see public reference §4.4 (envelope)
 */
import type { Context } from '../context.js';
import { announce } from '../events.js';
import { deriveBytes } from '../domain/secrets.js';
import { nextSerial } from '../store/db.js';
import { getBrand } from '../store/promotions.js';
import { type Delivery, type WebhookEvent, insertDelivery, insertEvent, listEndpoints } from '../store/webhooks.js';

type Outbox = Pick<Context, 'db' | 'seed' | 'clock' | 'events'>;

/**
 * Stores the event and a delivery per subscribed endpoint. `subject` (the event's brand and data,
 * or nothing when there is no event after all) is read only once some endpoint subscribes, so an
 * event nobody listens to costs no lookup.
 */
export function enqueueEvent(ctx: Outbox, type: WebhookEvent, subject: () => { brandId: number; data: unknown } | undefined): void {
  const endpoints = listEndpoints(ctx.db).filter((endpoint) => endpoint.events.includes(type));
  if (endpoints.length === 0) return;
  const now = ctx.clock.now();
  const enqueued = ctx.db.transaction(() => {
    const found = subject();
    if (!found) return false;
    const publicId = deriveBytes(ctx.seed, `webhook_event:${nextSerial(ctx.db, 'webhook_event')}`).toString('hex').slice(0, 32);
    const body = JSON.stringify({ id: publicId, event: type, occurred_at: new Date(now).toISOString(), brand: getBrand(ctx.db, found.brandId), data: found.data });
    const eventId = insertEvent(ctx.db, { publicId, type, brandId: found.brandId, occurredAt: now, body });
    for (const endpoint of endpoints) insertDelivery(ctx.db, { publicId: newDeliveryId(ctx), eventId, endpointId: endpoint.id, now });
    return true;
  })();
  if (enqueued) announce(ctx, 'webhooks.enqueued');
}

/** A replay is a new delivery (its own id and attempts) of the same envelope to the same endpoint. */
export function replayDelivery(ctx: Outbox, delivery: Delivery): string {
  const publicId = newDeliveryId(ctx);
  insertDelivery(ctx.db, { publicId, eventId: delivery.event_id, endpointId: delivery.endpoint_id, now: ctx.clock.now(), replayOf: delivery.public_id });
  announce(ctx, 'webhooks.enqueued');
  return publicId;
}

/** `X-Service-Delivery`: the same on every retry of one delivery, so receivers can dedupe on it. */
function newDeliveryId(ctx: Outbox): string {
  return `dlv_${deriveBytes(ctx.seed, `webhook_delivery:${nextSerial(ctx.db, 'webhook_delivery')}`).toString('hex').slice(0, 24)}`;
}
