/** `/_emulator/faults` (arm, list, clear) and `/_emulator/observed` (reading it starts the observing). */
import { Router } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { WholeText, validate } from '../validation.js';
import { type Fault, FaultBody } from './faults.js';
import { resolvePacks, wallClock } from './observations.js';
import { CALLS_KEPT, type Instruments } from './instruments.js';
import { restoreTerms } from './world-edits.js';

const CallsQuery = z.strictObject({
  after: WholeText(0, Number.MAX_SAFE_INTEGER).default(0),
  pack: z.string().max(64).optional(),
  limit: WholeText(1, CALLS_KEPT).default(1000),
});

export function faultsRouter(ctx: Context, instruments: Instruments): Router {
  const router = Router();

  router.get('/faults', (_req, res) => res.json({ data: instruments.faults }));
  router.post('/faults', (req, res) => {
    const { next } = validate(FaultBody, req.body, { hint: 'Send {"next": {"path": "/session/entry", "status": 429, "retry_after": 3, "times": 1}}.' });
    const fault: Fault = { ...next, id: instruments.nextId++, hits: 0 };
    instruments.faults.push(fault);
    instruments.observing = true;
    res.status(201).json(fault);
  });
  router.post('/faults/clear', (_req, res) => {
    const cleared = instruments.faults.length;
    instruments.faults = [];
    res.json({ cleared, terms_restored: restoreTerms(ctx, instruments.originalTerms) });
  });

  router.get('/observed', (req, res) => {
    const { after, pack, limit } = validate(CallsQuery, req.query, { hint: 'after and limit are whole numbers; pack is a pack code.' });
    instruments.observing = true;
    resolvePacks(ctx, instruments.calls);
    const data = instruments.calls.filter((call) => call.seq > after && (!pack || call.pack === pack)).slice(0, limit);
    res.json({ now: wallClock(), last: instruments.seq, data });
  });

  return router;
}
