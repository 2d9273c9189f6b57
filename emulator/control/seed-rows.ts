/**
 * The control plane's row `POST /_emulator/seed {"scans": N}`: more seeded history for scale
 * testing (use-cases/control/seed.ts), answered when done. With `"webhooks": true` every seeded
 * scan is announced as a production one. With `"progress": true` the answer is NDJSON:
 * `{"added", "total"}` after each chunk, then the usual `{"scans", "milliseconds"}` (what
 * `emulator seed` shows its progress from). A caller that goes stops the seed.
 */
import type { Response } from 'express';
import { type EndpointTable, Streamed, anyone } from '../endpoints.js';
import { z } from 'zod';
import type { Context } from '../context.js';
import { storageFailure } from '../errors.js';
import { validate } from '../validation.js';
import { seedHistory } from '../use-cases/control/seed.js';

const MAX_SEED_SCANS = 10_000_000;

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
    answer: (seed) => new Streamed((res) => writeSeed(ctx, seed, res)),
  });
}

/** The seed's progress as it goes (NDJSON) or its one answer at the end; a full disk ends the progress with its error and what was added. */
function writeSeed(ctx: Context, { progress, ...seed }: z.infer<typeof SeedBody>, res: Response): Promise<void> {
  if (progress) res.type('application/x-ndjson');
  const caller = new AbortController();
  res.once('close', () => caller.abort());
  let added = 0;
  const chunkDone = (count: number) => {
    added = count;
    if (progress) res.write(`${JSON.stringify({ added, total: seed.scans })}\n`);
  };
  return seedHistory(ctx, seed, { cancel: caller.signal, chunkDone }).then(
    (seeded) => {
      if (progress || 'stopped' in seeded) res.end(`${JSON.stringify(seeded)}\n`);
      else res.json(seeded);
    },
    (error: unknown) => {
      const full = storageFailure(error);
      if (!full || !progress) throw full ?? error;
      ctx.logger.error({ added, scans: seed.scans }, 'the disk is full: seeding stopped');
      res.end(`${JSON.stringify({ ...full.toJSON(), added })}\n`);
    },
  );
}
