/**
 * The built-in sink's receiving and watching end, under `/_emulator/sink`. `POST /:name` is a
 * webhook receiver like a brand would write, so a brand can watch events without one: its use case
 * (use-cases/webhooks/sink-receipt.ts) verifies the signature on the raw body, keeps every delivery
 * (verified or not) with its headers in SQLite, and answers verified ones with the sink's
 * configured status. `GET /:name/deliveries?after=ID` is what arrived since, for the sink page's
 * live list (HTML) and `emulator webhooks listen` (JSON).
 *
 * Mounted ahead of the control plane's JSON body reader (control/plane.ts), which would lose the
 * raw bytes; the control guard in front of it lets the emulator's own deliveries through (loopback, JSON).
 */
import express, { Router } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { anyone, endpointTable, noInput, scriptAnswer } from '../endpoints.js';
import { ControlError, sinkNamed } from './errors.js';
import { type SinkEvent, sinkEventsAfter } from '../store/sinks.js';
import { UNVERIFIED_STATUS, receiveAtSink } from '../use-cases/webhooks/sink-receipt.js';
import { WholeText, validate } from '../validation.js';
import { SINK_PAGE_SCRIPT, deliveryArticles, redactedHeaders } from '../webhooks/sink-page.js';

const MAX_BODY = '1mb';

const DeliveriesQuery = z.object({
  after: WholeText(0, Number.MAX_SAFE_INTEGER).default(0),
  limit: WholeText(1, 1000).default(100),
});

export function sinkReceiver(ctx: Context): Router {
  const router = Router();
  const endpoint = endpointTable(router, { ctx });
  // The receiver reads the body as the bytes came, whatever their type: the signature is over them.
  const receiver = endpointTable(router, { ctx, body: express.raw({ type: () => true, limit: MAX_BODY }) });

  endpoint({
    method: 'get', path: '/live.js', caller: anyone,
    input: noInput,
    run: () => ({}),
    answer: () => scriptAnswer(SINK_PAGE_SCRIPT),
  });

  receiver({
    method: 'post', path: '/:name', caller: anyone,
    input: (req) => ({
      sink: sinkNamed(ctx.db, req.params.name),
      arrived: {
        body: Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '',
        signature: req.get('x-service-signature'), event: req.get('x-service-event') ?? null, delivery: req.get('x-service-delivery') ?? null,
        headers: receivedHeaders(req.headers),
      },
    }),
    run: (on, _caller, { sink, arrived }) => receiveAtSink(on, sink, arrived),
    refusal: ({ problem }) => new ControlError('invalid_signature', { message: problem, status: UNVERIFIED_STATUS }),
    answer: ({ status }) => ({ status, body: { received: true } }),
  });

  /** Oldest first as JSON (a cursor: pass the last id as `after`); newest first as HTML, as the page lists them. */
  endpoint({
    method: 'get', path: '/:name/deliveries', caller: anyone,
    input: (req) => {
      const sink = sinkNamed(ctx.db, req.params.name);
      const { after, limit } = validate(DeliveriesQuery, req.query, { hint: 'after must be a whole number, limit one from 1 to 1000.', details: false });
      return { sink, after, limit, html: req.accepts(['json', 'html']) === 'html' };
    },
    run: (on, _caller, { sink, after, limit }) => ({ events: sinkEventsAfter(on.db, sink.id, after, limit) }),
    answer: ({ events }, _caller, { html }) =>
      html ? { status: 200, page: deliveryArticles([...events].reverse()) } : { status: 200, body: { data: events.map(deliveryJson) } },
  });

  return router;
}

/** Headers a stray caller might send with credentials in them keep their names, never their values (the logs' redaction). */
function receivedHeaders(headers: express.Request['headers']): Record<string, string> {
  return redactedHeaders(Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')])));
}

/** A delivery as `GET /:name/deliveries` answers it in JSON. */
export type SinkDelivery = ReturnType<typeof deliveryJson>;

function deliveryJson(event: SinkEvent) {
  return {
    id: event.id, received_at: new Date(event.received_at).toISOString(), event: event.event, delivery: event.delivery,
    verdict: event.verdict, problem: event.problem, headers: JSON.parse(event.headers) as Record<string, string>, body: event.body,
  };
}
