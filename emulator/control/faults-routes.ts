/** `/_emulator/faults` (arm, list, clear) and `/_emulator/observed` (reading it starts the observing). */
import { Router } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { validate } from '../validation.js';
import { type Fault, FaultBody } from './faults.js';
import { resolvePacks, wallClock } from './observations.js';
import { CALLS_KEPT, type PlaneState } from './plane-state.js';
import { restoreTerms } from './world-edits.js';

const CallsQuery = z.strictObject({
  after: z.coerce.number().int().min(0).default(0),
  pack: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(CALLS_KEPT).default(1000),
});

export function faultsRouter(ctx: Context, state: PlaneState): Router {
  const router = Router();

  router.get('/faults', (_req, res) => res.json({ data: state.faults }));
  router.post('/faults', (req, res) => {
    const { next } = validate(FaultBody, req.body, { hint: 'Send {"next": {"path": "/session/entry", "status": 429, "retry_after": 3, "times": 1}}.' });
    const fault: Fault = { ...next, id: state.nextId++, hits: 0 };
    state.faults.push(fault);
    state.observing = true;
    res.status(201).json(fault);
  });
  router.post('/faults/clear', (_req, res) => {
    const cleared = state.faults.length;
    state.faults = [];
    res.json({ cleared, terms_restored: restoreTerms(ctx, state.originalTerms) });
  });

  router.get('/observed', (req, res) => {
    const { after, pack, limit } = validate(CallsQuery, req.query, { hint: 'after and limit are whole numbers; pack is a pack code.' });
    state.observing = true;
    resolvePacks(ctx, state.calls);
    const data = state.calls.filter((call) => call.seq > after && (!pack || call.pack === pack)).slice(0, limit);
    res.json({ now: wallClock(), last: state.seq, data });
  });

  return router;
}
