/**
 * Domain events → webhook events, the one way an event reaches the outbox: `scan.processed` for
 * every production scan (tester scans are never announced), `activation.entered` for every
 * production entry, `batch.generated` and `batch.export_ready` as a batch advances.
 * @see spec §6, public reference §5
 */
import type { Context } from '../context.js';
import { scanOutcome } from '../use-cases/reporting/scan-outcome.js';
import { batchJson } from '../reporting/serialize.js';
import { getBatch } from '../store/batches.js';
import { getBrand } from '../store/promotions.js';
import { getSku } from '../store/skus.js';
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
  const onBatch = guarded<{ batchId: number; state: 'generated' | 'export_ready' }>('batch.advanced', ({ batchId, state }) => {
    enqueueEvent(ctx, `batch.${state}`, () => {
      const batch = getBatch(ctx.db, batchId);
      const sku = getSku(ctx.db, batch.sku_id);
      const brand = getBrand(ctx.db, sku.brand_id);
      return { brandId: brand.id, data: batchJson(batch, sku, brand, ctx.config.baseUrl) };
    });
  });
  ctx.events.on('scan.recorded', onScan);
  ctx.events.on('entry.created', onEntry);
  ctx.events.on('batch.advanced', onBatch);
  return () => {
    ctx.events.off('scan.recorded', onScan);
    ctx.events.off('entry.created', onEntry);
    ctx.events.off('batch.advanced', onBatch);
  };
}
