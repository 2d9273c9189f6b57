/**
 * The built-in sink's receiving end, `POST /_emulator/sink/:name`: a webhook receiver like a
 * brand would write, so a brand can watch events without one. It verifies the signature on the
 * raw body with its endpoint's secret, keeps every delivery (verified or not) in SQLite, and
 * answers verified ones with the sink's configured status. Mounted ahead of the control router,
 * whose JSON parser would lose the raw bytes; the control guard in front of `/_emulator` lets
 * the emulator's own deliveries through (loopback, JSON).
 */
import express, { Router } from 'express';
import type { Context } from '../context.js';
import { findSink, recordSinkEvent } from '../store/sinks.js';
import { findEndpoint } from '../store/webhooks.js';
import { endpointSecret, verifySignature } from './signing.js';

const MAX_BODY = '1mb';

export function sinkReceiver(ctx: Context): Router {
  const router = Router();
  router.post('/:name', express.raw({ type: () => true, limit: MAX_BODY }), (req, res) => {
    const sink = findSink(ctx.db, req.params.name);
    if (!sink) {
      res.status(404).json({ error: 'not_found', message: `No sink named "${req.params.name}". Create it with POST /_emulator/sinks {"name": "..."}.` });
      return;
    }
    const body = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    const endpoint = findEndpoint(ctx.db, sink.endpoint_id)!;
    const verification = verifySignature(req.get('x-service-signature'), body, endpointSecret(ctx.seed, endpoint.secret_serial), Math.floor(ctx.clock.now() / 1000));
    recordSinkEvent(ctx.db, sink.id, {
      received_at: ctx.clock.now(), event: req.get('x-service-event') ?? null, delivery: req.get('x-service-delivery') ?? null,
      verified: verification.ok ? 1 : 0, problem: verification.ok ? null : verification.problem, body,
    });
    if (!verification.ok) {
      res.status(400).json({ error: 'invalid_signature', message: verification.problem });
      return;
    }
    res.status(sink.respond_with).json({ received: true });
  });
  return router;
}
