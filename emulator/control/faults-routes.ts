/** `/_emulator/faults` (arm, list, clear) and `/_emulator/observed` (reading it starts the observing). */
import { Router } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { WholeText, validate } from '../validation.js';
import { type Fault, FaultBody } from './faults.js';
import { resolvePacks, wallClock } from './observations.js';
import { CALLS_KEPT, type ControlState } from './state.js';
import { restoreTerms } from './world-edits.js';

const CallsQuery = z.strictObject({
  after: WholeText(0, Number.MAX_SAFE_INTEGER).default(0),
  pack: z.string().max(64).optional(),
  limit: WholeText(1, CALLS_KEPT).default(1000),
});

export function faultsRouter(ctx: Context, controlState: ControlState): Router {
  const router = Router();

  router.get('/faults', (_req, res) => res.json({ data: controlState.faults }));
  router.post('/faults', (req, res) => {
    const { next } = validate(FaultBody, req.body, { hint: 'Send {"next": {"path": "/session/entry", "status": 429, "retry_after": 3, "times": 1}}.' });
    const fault: Fault = { ...next, id: controlState.nextId++, hits: 0 };
    controlState.faults.push(fault);
    controlState.observing = true;
    res.status(201).json(fault);
  });
  router.post('/faults/clear', (_req, res) => {
    const cleared = controlState.faults.length;
    controlState.faults = [];
    res.json({ cleared, terms_restored: restoreTerms(ctx, controlState.originalTerms) });
  });

  router.get('/observed', (req, res) => {
    const { after, pack, limit } = validate(CallsQuery, req.query, { hint: 'after and limit are whole numbers; pack is a pack code.' });
    controlState.observing = true;
    resolvePacks(ctx, controlState.calls);
    const data = controlState.calls.filter((call) => call.seq > after && (!pack || call.pack === pack)).slice(0, limit);
    res.json({ now: wallClock(), last: controlState.seq, data });
  });

  return router;
}
