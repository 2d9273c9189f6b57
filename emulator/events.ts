/**
 * Domain events inside the emulator: the experience API and the journey announce what happened,
 * and subscribers (webhooks) react, so neither side imports the other.
 */
import { EventEmitter } from 'node:events';

export interface DomainEvents {
  /** A scan row was recorded (journey or seeded history). */
  'scan.recorded': [{ scanId: number }];
  /** A production entry was created. */
  'entry.created': [{ entryId: number }];
  /** Webhook deliveries were stored (webhooks/outbox.ts), for the dispatcher to send. */
  'webhooks.enqueued': [];
}

export type EventBus = EventEmitter<DomainEvents>;

export function createEventBus(): EventBus {
  return new EventEmitter<DomainEvents>();
}
