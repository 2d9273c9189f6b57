/**
 * A batch's generation, asynchronous (started by `orderBatch`, resumed at start-up): codes go a
 * lot (2,000 codes, some 10 ms) per transaction, with the event loop free between lots so the
 * emulator keeps answering. Progress is stored, so a restart resumes a batch where it stopped.
 * `batch.generated` follows the last code, `batch.export_ready` the downloadable CSV.
 * @see spec §3 (batches), §6
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Context } from '../../context.js';
import { type Announcing, announce } from '../../events.js';
import { type Batch, advanceBatch, batchesInState, generateLot, getBatch } from '../../store/batches.js';
import { ownTransaction } from '../../fast-path/turn-transaction.js';

/** Runs until the batch is export-ready; a batch that vanished (reset) or a closed database ends it quietly. */
export async function runBatchJob(ctx: Context, batchId: number): Promise<void> {
  try {
    for (;;) {
      await nextTurn();
      if (!ctx.db.open) return;
      if (!ownTransaction(ctx.db, () => generateLot(ctx.db, ctx.seed, batchId))) break;
    }
    announceBatch(ctx, ownTransaction(ctx.db, () => advanceBatch(ctx.db, batchId, 'generating', 'generated') && getBatch(ctx.db, batchId)), 'generated');
    await nextTurn();
    if (ctx.db.open) announceBatch(ctx, ownTransaction(ctx.db, () => advanceBatch(ctx.db, batchId, 'generated', 'export_ready') && getBatch(ctx.db, batchId)), 'export_ready');
  } catch (error) {
    ctx.logger.error({ err: error, batch: batchId }, 'batch generation stopped');
  }
}

/** Resumes the batches a stopped emulator left unfinished. */
export function resumeBatchJobs(ctx: Context): void {
  for (const batch of [...batchesInState(ctx.db, 'generating'), ...batchesInState(ctx.db, 'generated')]) void runBatchJob(ctx, batch.id);
}

/** Announces the batch's new state, if it advanced (`batch` is then the advanced batch). */
function announceBatch(ctx: Announcing & { logger: Logger }, batch: Batch | false, state: 'generated' | 'export_ready'): void {
  if (!batch) return;
  announce(ctx, 'batch.advanced', { batchId: batch.id, state });
  ctx.logger.info({ batch: batch.id, quantity: batch.quantity }, `batch.${state}`);
}
