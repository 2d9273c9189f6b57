/**
 * Domain events → webhook events: `scan.processed` for every production scan (tester scans are
 * never announced), `activation.entered` for every production entry. @see spec §6, public reference §5
 */
import type { Context } from '../context.js';
import { scanOutcome } from '../reporting/scan-outcome.js';
import { findProductionScanById } from '../store/scan-reads.js';
import { findProductionEntry } from '../store/entries.js';
import { enqueueEvent } from './outbox.js';
import { activationEnteredData } from './payloads.js';

/** Subscribes; returns the unsubscribe. */
export function subscribeDomainEvents(ctx: Context): () => void {
  // A listener's failure must not fail the journey request that emitted the event: log it instead.
  const guarded = <T>(name: string, handle: (payload: T) => void) => (payload: T) => {
    try {
      handle(payload);
    } catch (error) {
      ctx.logger.error({ err: error, event: name, payload }, 'webhook event not enqueued');
    }
  };
  const onScan = guarded<{ scanId: number }>('scan.recorded', ({ scanId }) => {
    enqueueEvent(ctx, 'scan.processed', () => {
      const scan = findProductionScanById(ctx.db, scanId);
      return scan && { brandId: scan.brand_id, data: scanOutcome(ctx.db, scan) };
    });
  });
  const onEntry = guarded<{ entryId: number }>('entry.created', ({ entryId }) => {
    enqueueEvent(ctx, 'activation.entered', () => {
      const entry = findProductionEntry(ctx.db, entryId);
      return entry && { brandId: entry.brand_id, data: activationEnteredData(ctx.db, entry) };
    });
  });
  ctx.events.on('scan.recorded', onScan);
  ctx.events.on('entry.created', onEntry);
  return () => {
    ctx.events.off('scan.recorded', onScan);
    ctx.events.off('entry.created', onEntry);
  };
}
