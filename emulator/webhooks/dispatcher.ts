/**
 * The webhook dispatcher of a running emulator: turns domain events into outbox rows and sends
 * due deliveries: at once when something is enqueued, when the virtual clock moves (retries), and
 * on a short poll (retries on a real clock, batch events). One delivery per endpoint is in flight
 * at a time. Deliveries live in SQLite, so pending ones go out after a restart.
 */
import type { Context } from '../context.js';
import { dueDeliveries } from '../store/webhooks.js';
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

  const sendDue = () => {
    if (stopping.signal.aborted || !ctx.db.open) return;
    for (const delivery of dueDeliveries(ctx.db, ctx.clock.now())) {
      if (busyEndpoints.has(delivery.endpoint_id)) continue;
      busyEndpoints.add(delivery.endpoint_id);
      const attempt = attemptDelivery(ctx, delivery, stopping.signal)
        .catch((error: unknown) => ctx.logger.error({ err: error, delivery: delivery.public_id }, 'webhook attempt not recorded'))
        .finally(() => {
          busyEndpoints.delete(delivery.endpoint_id);
          sending.delete(attempt);
          sendDue();
        });
      sending.add(attempt);
    }
  };

  const unsubscribe = subscribeDomainEvents(ctx, sendDue);
  ctx.clock.onChange(sendDue);
  const poll = setInterval(sendDue, POLL_MS).unref();
  sendDue();
  return {
    async stop() {
      stopping.abort();
      clearInterval(poll);
      unsubscribe();
      await Promise.allSettled(sending);
    },
  };
}
