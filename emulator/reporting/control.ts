/**
 * `POST /_emulator/seed {"scans": N}`: more seeded history for scale testing (`emulator seed
 * --scans N`). Inserted in chunks, one transaction each, with the event loop free between them;
 * answers when done. With `"webhooks": true` every seeded production scan is announced as a
 * `scan.processed` event too; by default history stays quiet, as it would flood every endpoint.
 * With `"progress": true` the answer is NDJSON: `{"added", "total"}` after each chunk, then the
 * usual `{"scans", "milliseconds"}` (what `emulator seed` shows its progress from).
 */
import { Router } from 'express';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { z } from 'zod';
import type { Context } from '../context.js';
import { announce } from '../events.js';
import { ownTransaction } from '../store/turn-transaction.js';
import { validate } from '../validation.js';
import { historyRun } from '../store/history.js';

const MAX_SEED_SCANS = 10_000_000;
const CHUNK = 20_000;

const SeedBody = z.strictObject({
  scans: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').max(MAX_SEED_SCANS, `must be at most ${MAX_SEED_SCANS}`),
  webhooks: z.boolean({ error: 'must be true or false' }).default(false),
  progress: z.boolean({ error: 'must be true or false' }).default(false),
});

export function seedControlRouter(ctx: Context): Router {
  const router = Router();
  router.post('/seed', async (req, res) => {
    const { scans, webhooks, progress } = validate(SeedBody, req.body, { hint: 'Send {"scans": N}, optionally with "webhooks": true and "progress": true.' });
    if (progress) res.type('application/x-ndjson');
    const started = performance.now();
    const run = ctx.db.transaction(() => historyRun(ctx.db, ctx.seed, ctx.clock.now(), scans))();
    for (let added = 0; added < scans; added += CHUNK) {
      // Chunks after the first turn run beside experience requests: each in its own transaction.
      const production = ownTransaction(ctx.db, () => run.add(CHUNK));
      if (webhooks) for (const scanId of production) announce(ctx, 'scan.recorded', { scanId });
      if (progress) res.write(`${JSON.stringify({ added: Math.min(added + CHUNK, scans), total: scans })}\n`);
      await nextTurn();
    }
    const milliseconds = Math.round(performance.now() - started);
    ctx.logger.info({ scans, webhooks, milliseconds }, 'history seeded');
    if (progress) res.end(`${JSON.stringify({ scans, milliseconds })}\n`);
    else res.json({ scans, milliseconds });
  });
  return router;
}
