/**
 * Batch generation, asynchronous: codes go a lot (2,000 codes, some 10 ms) per transaction, with
 * the event loop free between lots so the emulator keeps answering. Progress is stored, so a restart resumes a
 * batch where it stopped. `batch.generated` follows the last code, `batch.export_ready` the
 * downloadable CSV. @see spec §3 (batches), §6
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Context } from '../context.js';
import { advanceBatch, batchesInState, generateLot, getBatch } from '../store/batches.js';
import { getBrand } from '../store/promotions.js';
import { getSku } from '../store/skus.js';
import { ownTransaction } from '../store/turn-transaction.js';
import { enqueueEvent } from '../webhooks/outbox.js';
import { batchJson } from './serialize.js';

/** Runs until the batch is export-ready; a batch that vanished (reset) or a closed database ends it quietly. */
export async function runBatchJob(ctx: Context, batchId: number): Promise<void> {
  try {
    for (;;) {
      await nextTurn();
      if (!ctx.db.open) return;
      if (!ownTransaction(ctx.db, () => generateLot(ctx.db, ctx.seed, batchId))) break;
    }
    if (ownTransaction(ctx.db, () => advanceBatch(ctx.db, batchId, 'generating', 'generated'))) announceBatch(ctx, batchId, 'batch.generated');
    await nextTurn();
    if (ctx.db.open && ownTransaction(ctx.db, () => advanceBatch(ctx.db, batchId, 'generated', 'export_ready'))) announceBatch(ctx, batchId, 'batch.export_ready');
  } catch (error) {
    ctx.logger.error({ err: error, batch: batchId }, 'batch generation stopped');
  }
}

/** Resumes the batches a stopped emulator left unfinished. */
export function resumeBatchJobs(ctx: Context): void {
  for (const batch of [...batchesInState(ctx.db, 'generating'), ...batchesInState(ctx.db, 'generated')]) void runBatchJob(ctx, batch.id);
}

function announceBatch(ctx: Context, batchId: number, event: 'batch.generated' | 'batch.export_ready'): void {
  const batch = getBatch(ctx.db, batchId);
  enqueueEvent(ctx, event, () => {
    const sku = getSku(ctx.db, batch.sku_id);
    const brand = getBrand(ctx.db, sku.brand_id);
    return { brandId: brand.id, data: batchJson(batch, sku, brand, ctx.config.baseUrl) };
  });
  ctx.logger.info({ batch: batchId, quantity: batch.quantity }, event);
}
