/**
 * A won prize's delivery, the §3 transitions: where it starts, and where it stands at a time.
 * Nothing writes the settled state: every read asks `deliveryAsOf`, so a read never writes.
 * @see spec §3
 */
export type Delivery = 'instant' | 'delayed' | 'failed' | 'delayed_failed';
export type EntryState = 'won' | 'lost' | 'pending' | 'failed';
export type DeliveryState = 'none' | 'processing' | 'delivered' | 'failed';

/** The entry state and delivery a freshly won prize starts in. */
export function initialDelivery(delivery: Delivery): { state: EntryState; deliveryState: DeliveryState; settlesAs?: 'delivered' | 'failed' } {
  switch (delivery) {
    case 'instant':
      return { state: 'won', deliveryState: 'delivered' };
    case 'failed':
      return { state: 'failed', deliveryState: 'failed' };
    case 'delayed':
      return { state: 'pending', deliveryState: 'processing', settlesAs: 'delivered' };
    case 'delayed_failed':
      return { state: 'pending', deliveryState: 'processing', settlesAs: 'failed' };
  }
}

export interface StoredDelivery {
  state: EntryState;
  delivery_state: DeliveryState;
  delivery_due_at: number | null;
  delivery_outcome: 'delivered' | 'failed' | null;
}

/** The entry as it stands at `now`: a processing delivery whose time has come shows its outcome. */
export function deliveryAsOf<E extends StoredDelivery>(entry: E, now: number): E {
  const { delivery_state, delivery_due_at, delivery_outcome } = entry;
  if (delivery_state !== 'processing' || delivery_due_at === null || delivery_due_at > now || delivery_outcome === null) return entry;
  return { ...entry, delivery_state: delivery_outcome, state: delivery_outcome === 'delivered' ? 'won' : 'failed' };
}
