/**
 * More seeded history for scale testing (`POST /_emulator/seed`, `emulator seed --scans N`):
 * inserted in chunks, one transaction each, with the event loop free between them. With `webhooks`
 * every seeded scan is a production one, announced as a `scan.processed` event too (N scans, N
 * deliveries per endpoint; a tester scan never is); by default history stays quiet, as it would
 * flood every endpoint. A seed stops between chunks when its caller goes (`cancel`) or the world is
 * reset; what it added stays, and is said.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Context } from '../../context.js';
import { announce } from '../../events.js';
import { ownTransaction } from '../../fast-path/turn-transaction.js';
import { historyRun } from '../../store/history.js';

const CHUNK = 20_000;

/** A seed done (how many scans, in how long), or stopped part-way (how many of how many it added). */
export type Seeded = { scans: number; milliseconds: number } | { stopped: 'cancelled' | 'reset'; added: number; total: number };

/** Seeds `scans` scans; `chunkDone` is told how many are in after each chunk. A full disk throws, what was added staying. */
export async function seedHistory(ctx: Context, { scans, webhooks }: { scans: number; webhooks: boolean }, { cancel, chunkDone }: { cancel: AbortSignal; chunkDone: (added: number) => void }): Promise<Seeded> {
  const started = performance.now();
  let stopped: 'cancelled' | 'reset' | undefined;
  const onCancel = () => (stopped ??= 'cancelled');
  const onReset = () => (stopped ??= 'reset');
  if (cancel.aborted) onCancel();
  cancel.addEventListener('abort', onCancel, { once: true });
  ctx.events.once('world.resetting', onReset);
  let added = 0;
  try {
    const run = ownTransaction(ctx.db, () => historyRun(ctx.db, ctx.seed, ctx.clock.now(), scans, { testerScans: !webhooks }));
    for (; added < scans && !stopped; ) {
      // Chunks after the first turn run beside experience requests: each in its own transaction.
      const production = ownTransaction(ctx.db, () => run.add(CHUNK));
      added = Math.min(added + CHUNK, scans);
      if (webhooks) for (const scanId of production) announce(ctx, 'scan.recorded', { scanId });
      chunkDone(added);
      await nextTurn();
    }
  } finally {
    cancel.removeEventListener('abort', onCancel);
    ctx.events.off('world.resetting', onReset);
  }
  if (stopped) {
    ctx.logger.info({ scans, added, stopped }, stopped === 'reset' ? 'seeding stopped by a reset' : 'seeding cancelled');
    return { stopped, added, total: scans };
  }
  const milliseconds = Math.round(performance.now() - started);
  ctx.logger.info({ scans, webhooks, milliseconds }, 'history seeded');
  return { scans, milliseconds };
}
