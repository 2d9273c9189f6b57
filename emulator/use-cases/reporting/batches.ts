/**
 * A SKU's batches of pack codes: ordered (generated in the background, then exported) and
 * downloaded once their file is ready. @see spec §3 (batches), §4.4
 */
import type { Context } from '../../context.js';
import { type Batch, createBatch, findBatch } from '../../store/batches.js';
import type { Sku } from '../../store/skus.js';
import { type Refused, refused } from '../../wire-contract.js';
import { runBatchJob } from './batch-job.js';
import type { NotFound } from './reads.js';

/** A batch asked for; its codes' generation starts, and goes on after the answer. */
export function orderBatch(ctx: Context, sku: Sku, input: { quantity: number; purpose: string }): Batch {
  const batch = createBatch(ctx.db, { skuId: sku.id, quantity: input.quantity, purpose: input.purpose, state: 'generating', now: ctx.clock.now() });
  void runBatchJob(ctx, batch.id);
  return batch;
}

/** Why a batch's file cannot be had: no such batch, or one still being made (it comes with the refusal). */
export type DownloadRefusal = NotFound | { notReady: Batch };

export function downloadableBatch(ctx: Context, sku: Sku, id: number): Batch | Refused<DownloadRefusal> {
  const batch = findBatch(ctx.db, sku.id, id);
  if (!batch) return refused('not_found');
  return batch.state === 'export_ready' ? batch : refused({ notReady: batch });
}
