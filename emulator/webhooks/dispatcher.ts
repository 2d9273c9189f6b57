/**
 * The webhook dispatcher of a running emulator: turns domain events into outbox rows and sends
 * due deliveries: when something is enqueued, when the virtual clock moves (retries), and on a
 * short poll (retries on a real clock, batch events). One delivery per endpoint is in flight at a
 * time; when it is done, only that endpoint's next due delivery is looked up, so the work of a
 * fan-out grows linearly with the endpoint count. Deliveries live in SQLite, so pending ones go
 * out after a restart.
 */
import type { Context } from '../context.js';
import { type Delivery, listEndpoints, nextDueDelivery } from '../store/webhooks.js';
import { attemptDelivery } from './deliver.js';
import { subscribeDomainEvents } from './subscriptions.js';

const POLL_MS = 200;

export interface Dispatcher {
  stop(): Promise<void>;
}

export function startWebhooks(ctx: Context): Dispatcher {
  const busyEndpoints = new Set<number>();
  const sending = new Set<Promise<void>>();
  const stopping = new AbortController();
  const running = () => !stopping.signal.aborted && ctx.db.open;
  // A reset deletes the deliveries in flight: their attempts end without recording anything.
  let world = new AbortController();
  const onReset = () => {
    world.abort();
    world = new AbortController();
  };

  const send = (delivery: Delivery) => {
    busyEndpoints.add(delivery.endpoint_id);
    const attempt = attemptDelivery(ctx, delivery, AbortSignal.any([stopping.signal, world.signal]))
      .catch((error: unknown) => ctx.logger.error({ err: error, delivery: delivery.public_id }, 'webhook attempt not recorded'))
      .finally(() => {
        busyEndpoints.delete(delivery.endpoint_id);
        sending.delete(attempt);
        sendNextOf(delivery.endpoint_id);
      });
    sending.add(attempt);
  };

  const sendNextOf = (endpointId: number) => {
    if (!running() || busyEndpoints.has(endpointId)) return;
    const next = nextDueDelivery(ctx.db, endpointId, ctx.clock.now());
    if (next) send(next);
  };

  const sendDue = () => {
    if (!running()) return;
    for (const endpoint of listEndpoints(ctx.db)) sendNextOf(endpoint.id);
  };

  // Events come in bursts (a seeded history announces thousands in one turn): one look per turn.
  let scheduled = false;
  const sendDueSoon = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      sendDue();
    });
  };

  const unsubscribe = subscribeDomainEvents(ctx);
  ctx.events.on('webhooks.enqueued', sendDueSoon);
  ctx.events.on('world.resetting', onReset);
  ctx.clock.onChange(sendDueSoon);
  const poll = setInterval(sendDue, POLL_MS).unref();
  sendDue();
  return {
    async stop() {
      stopping.abort();
      clearInterval(poll);
      unsubscribe();
      ctx.events.off('webhooks.enqueued', sendDueSoon);
      ctx.events.off('world.resetting', onReset);
      await Promise.allSettled(sending);
    },
  };
}
