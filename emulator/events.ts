/**
 * Domain events inside the emulator: the experience API, the journey and the batch job announce what happened,
 * and subscribers (webhooks) react, so neither side imports the other.
 */
import { EventEmitter } from 'node:events';
import type { Db } from './store/db.js';
import { whenCommitted } from './fast-path/turn-transaction.js';

export interface DomainEvents {
  /** A scan row was recorded (journey or seeded history). */
  'scan.recorded': [{ scanId: number }];
  /** A production entry was created. */
  'entry.created': [{ entryId: number }];
  /** A batch's codes were generated, or its CSV became ready to download. */
  'batch.advanced': [{ batchId: number; state: 'generated' | 'export_ready' }];
  /** Webhook deliveries were stored (webhooks/outbox.ts), for the dispatcher to send. */
  'webhooks.enqueued': [];
  /** The world is about to be reset: work in flight for the old one (deliveries, a seed) stops without writing. */
  'world.resetting': [];
}

export type EventBus = EventEmitter<DomainEvents>;

export function createEventBus(): EventBus {
  return new EventEmitter<DomainEvents>();
}

/** What announcing needs: the bus, and the connection's state (whether a shared transaction is open), not the connection. */
export interface Announcing {
  db: Pick<Db, 'state'>;
  events: EventBus;
}

/**
 * The one way to emit: an event tells of committed data, so inside the experience API's shared
 * transaction it waits for the COMMIT, and a rollback drops it (fast-path/turn-transaction.ts).
 */
export function announce<Name extends keyof DomainEvents>(ctx: Announcing, name: Name, ...payload: DomainEvents[Name]): void {
  whenCommitted(ctx.db, () => void ctx.events.emit(name, ...(payload as never)));
}

/** Told at once, before a reset (no data to wait for): work in flight for the old world stops, webhook attempts and a seed. */
export function announceReset(ctx: { events: EventBus }): void {
  ctx.events.emit('world.resetting');
}
