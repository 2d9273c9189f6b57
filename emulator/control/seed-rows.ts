/**
 * The control plane's row `POST /_emulator/seed {"scans": N}`: more seeded history for scale testing (`emulator seed
 * --scans N`). Inserted in chunks, one transaction each, with the event loop free between them;
 * answers when done. With `"webhooks": true` every seeded scan is a production one, announced as
 * a `scan.processed` event too (N scans, N deliveries per endpoint; a tester scan never is); by
 * default history stays quiet, as it would flood every endpoint.
 * With `"progress": true` the answer is NDJSON: `{"added", "total"}` after each chunk, then the
 * usual `{"scans", "milliseconds"}` (what `emulator seed` shows its progress from).
 */
import type { Response } from 'express';
import { type EndpointTable, Streamed, anyone } from '../endpoints.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { z } from 'zod';
import type { Context } from '../context.js';
import { storageFailure } from '../errors.js';
import { announce } from '../events.js';
import { ownTransaction } from '../fast-path/turn-transaction.js';
import { validate } from '../validation.js';
import { historyRun } from '../store/history.js';

const MAX_SEED_SCANS = 10_000_000;
const CHUNK = 20_000;

const SeedBody = z.strictObject({
  scans: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').max(MAX_SEED_SCANS, `must be at most ${MAX_SEED_SCANS}`),
  webhooks: z.boolean({ error: 'must be true or false' }).default(false),
  progress: z.boolean({ error: 'must be true or false' }).default(false),
});

export function seedRows(endpoint: EndpointTable<Context>, ctx: Context): void {
  endpoint({
    method: 'post', path: '/seed', caller: anyone,
    input: (req) => validate(SeedBody, req.body, { hint: 'Send {"scans": N}, optionally with "webhooks": true and "progress": true.' }),
    run: (_ctx, _caller, seed) => seed,
    answer: (seed) => new Streamed((res) => seedHistory(ctx, seed, res)),
  });
}

/** Seeds in chunks, writing progress as it goes (NDJSON) or the one answer at the end. */
async function seedHistory(ctx: Context, { scans, webhooks, progress }: z.infer<typeof SeedBody>, res: Response): Promise<void> {
  if (progress) res.type('application/x-ndjson');
  const started = performance.now();
  // A seed stops between chunks when its caller goes (Ctrl-C) or the world is reset; what it added stays, and is said.
  let stopped: 'cancelled' | 'reset' | undefined;
  res.once('close', () => (stopped ??= 'cancelled'));
  const onReset = () => (stopped ??= 'reset');
  ctx.events.once('world.resetting', onReset);
  let added = 0;
  try {
    const run = ownTransaction(ctx.db, () => historyRun(ctx.db, ctx.seed, ctx.clock.now(), scans, { testerScans: !webhooks }));
    for (; added < scans && !stopped; ) {
      // Chunks after the first turn run beside experience requests: each in its own transaction.
      const production = ownTransaction(ctx.db, () => run.add(CHUNK));
      added = Math.min(added + CHUNK, scans);
      if (webhooks) for (const scanId of production) announce(ctx, 'scan.recorded', { scanId });
      if (progress) res.write(`${JSON.stringify({ added, total: scans })}\n`);
      await nextTurn();
    }
  } catch (error) {
    const full = storageFailure(error);
    if (!full || !progress) throw full ?? error;
    ctx.logger.error({ added, scans }, 'the disk is full: seeding stopped');
    return void res.end(`${JSON.stringify({ ...full.toJSON(), added })}\n`);
  } finally {
    ctx.events.off('world.resetting', onReset);
  }
  const milliseconds = Math.round(performance.now() - started);
  if (stopped) {
    ctx.logger.info({ scans, added, stopped }, stopped === 'reset' ? 'seeding stopped by a reset' : 'seeding cancelled');
    return void res.end(`${JSON.stringify({ stopped, added, total: scans })}\n`);
  }
  ctx.logger.info({ scans, webhooks, milliseconds }, 'history seeded');
  if (progress) res.end(`${JSON.stringify({ scans, milliseconds })}\n`);
  else res.json({ scans, milliseconds });
}
