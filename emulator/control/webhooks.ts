/**
 * Webhooks on the control plane: endpoints (`emulator webhooks add|list|remove`), deliveries with
 * every attempt, replay, and the built-in sinks with their pages. Actions are POSTs, as elsewhere
 * on the control plane. Mounted in control/plane.ts, after the JSON body reader and behind the
 * control guard.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { ControlError } from './errors.js';
import { IdText, WholeText, validate } from '../validation.js';
import { sendPage } from '../pages/http.js';
import { nextSerial } from '../store/db.js';
import { createSink, findSink, listSinkEvents, listSinks, setSinkResponse, type Sink, type SinkEvent } from '../store/sinks.js';
import {
  type Delivery, type Endpoint, WEBHOOK_EVENTS, type WebhookEvent,
  countEndpoints, createEndpoint, findDelivery, listAttempts, listDeliveries, listEndpoints, removeEndpoint,
} from '../store/webhooks.js';
import { linkLocalProblem } from '../webhooks/link-local.js';
import { replayDelivery } from '../webhooks/outbox.js';
import { sinkPage, sinksPage } from '../webhooks/sink-page.js';
import { endpointSecret } from '../webhooks/signing.js';

const events = z.array(z.enum(WEBHOOK_EVENTS, { error: `must be one of ${WEBHOOK_EVENTS.join(', ')}` })).min(1, 'must name at least one event');
const status = z.number({ error: 'must be an HTTP status' }).int().min(200, 'must be 200 to 599').max(599, 'must be 200 to 599');

const EndpointBody = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'must be an absolute http or https URL' }),
  events: events.optional(),
});
const SinkBody = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be 1 to 63 lower-case letters, digits and hyphens'),
  events: events.optional(),
  respond_with: status.optional(),
});
const SinkUpdate = z.strictObject({ respond_with: status });
const DeliveryQuery = z.object({
  endpoint_id: IdText.optional(),
  limit: WholeText(1, 1000).default(100),
});
const SinkQuery = z.object({
  limit: WholeText(1, 1000).optional(),
  before: IdText.optional(),
});
/** Deliveries per page of the sink page; JSON readers get 100 unless they ask. */
const SINK_PAGE_SIZE = 20;

/** Endpoints in use at once, sinks included: every event is one delivery per endpoint. */
const MAX_ENDPOINTS = 100;

export function webhooksControlRouter(ctx: Context): Router {
  const router = Router();
  const { db } = ctx;
  const absolute = (url: string) => new URL(url, ctx.config.baseUrl).href;

  const addEndpoint = (url: string, subscribed: WebhookEvent[] | undefined) => {
    if (countEndpoints(db) >= MAX_ENDPOINTS) {
      throw new ControlError('limit_reached', { message: `The emulator sends to at most ${MAX_ENDPOINTS} webhook endpoints, sinks included; remove one first (POST /_emulator/webhooks/ID/remove, or \`emulator webhooks remove ID\`).` });
    }
    const serial = nextSerial(db, 'webhook_secret');
    const endpoint = createEndpoint(db, { url, events: subscribed ?? [...WEBHOOK_EVENTS], secretSerial: serial, now: ctx.clock.now() });
    return { ...endpointJson(endpoint), secret: endpointSecret(ctx.seed, serial) };
  };
  const endpointJson = (endpoint: Endpoint) => ({
    id: endpoint.id, url: absolute(endpoint.url), events: endpoint.events, created_at: new Date(endpoint.created_at).toISOString(),
  });
  const deliveryJson = (delivery: Delivery) => ({
    id: delivery.public_id,
    event: delivery.type,
    event_id: delivery.event_public_id,
    endpoint_id: delivery.endpoint_id,
    url: absolute(delivery.url),
    state: delivery.state,
    next_attempt_at: delivery.next_attempt_at === null ? null : new Date(delivery.next_attempt_at).toISOString(),
    replay_of: delivery.replay_of,
    created_at: new Date(delivery.created_at).toISOString(),
    attempts: listAttempts(db, delivery.id).map((attempt) => ({ ...attempt, at: new Date(attempt.at).toISOString() })),
  });
  const sinkJson = (sink: Sink) => ({
    name: sink.name, url: absolute(`/_emulator/sink/${sink.name}`), endpoint_id: sink.endpoint_id,
    respond_with: sink.respond_with, created_at: new Date(sink.created_at).toISOString(),
  });
  const sinkEventJson = (event: SinkEvent) => ({
    id: event.id, received_at: new Date(event.received_at).toISOString(), event: event.event, delivery: event.delivery,
    verified: event.verified === 1, problem: event.problem, payload: parsedOrText(event.body),
  });
  const sinkNamed = (name: string) => {
    const sink = findSink(db, name);
    if (!sink) throw new ControlError('not_found', { message: `No sink named "${name}". Create it with POST /_emulator/sinks {"name": "${name}"}.` });
    return sink;
  };

  router.get('/webhooks', (_req, res) => {
    res.json({ data: listEndpoints(db).map(endpointJson) });
  });

  /** The secret is in this answer only. */
  router.post('/webhooks', (req, res) => {
    const hint = 'Send {"url": "https://…", "events": ["scan.processed", …]}; events default to all.';
    const body = validate(EndpointBody, req.body, { hint: hint });
    const problem = ctx.config.allowLinkLocalWebhooks ? undefined : linkLocalProblem(body.url);
    if (problem) throw new ControlError('invalid_request', { message: `${hint} The url ${problem}.`, details: { url: [problem] } });
    res.status(201).json(addEndpoint(body.url, body.events));
  });

  router.post('/webhooks/:id/remove', (req, res) => {
    const id = IdText.safeParse(req.params.id);
    if (!id.success || !removeEndpoint(db, id.data, ctx.clock.now())) throw new ControlError('not_found', { message: `No webhook endpoint ${req.params.id}; see GET /_emulator/webhooks.` });
    res.json({ id: id.data, removed: true });
  });

  router.get('/deliveries', (req, res) => {
    const query = validate(DeliveryQuery, req.query, { hint: 'endpoint_id and limit (1 to 1000) must be whole numbers.' });
    res.json({ data: listDeliveries(db, { endpointId: query.endpoint_id, limit: query.limit }).map(deliveryJson) });
  });

  router.get('/deliveries/:id', (req, res) => {
    res.json(deliveryJson(deliveryNamed(req.params.id)));
  });

  router.post('/deliveries/:id/replay', (req, res) => {
    const replay = findDelivery(db, replayDelivery(ctx, deliveryNamed(req.params.id)))!;
    res.status(202).json(deliveryJson(replay));
  });

  router.get('/sinks', (_req, res) => {
    res.json({ data: listSinks(db).map((sink) => ({ ...sinkJson(sink), received: sink.received })) });
  });

  /** The sink's endpoint secret is in this answer only; the sink itself verifies with it. */
  router.post('/sinks', (req, res) => {
    const body = validate(SinkBody, req.body, { hint: 'Send {"name": "crm"}, optionally with "events" and "respond_with" (an HTTP status).' });
    if (findSink(db, body.name)) throw new ControlError('invalid_request', { message: `A sink named "${body.name}" exists.`, details: { name: ['is already taken'] } });
    const created = db.transaction(() => {
      const endpoint = addEndpoint(`/_emulator/sink/${body.name}`, body.events);
      const sink = createSink(db, { name: body.name, endpointId: endpoint.id, respondWith: body.respond_with ?? 200, now: ctx.clock.now() });
      return { ...sinkJson(sink), endpoint };
    })();
    res.status(201).json(created);
  });

  router.post('/sinks/:name', (req, res) => {
    const body = validate(SinkUpdate, req.body, { hint: 'Send {"respond_with": 500} to make the sink fail, {"respond_with": 200} to heal it.' });
    sinkNamed(req.params.name);
    res.json(sinkJson(setSinkResponse(db, req.params.name, body.respond_with)!));
  });

  router.get('/sink', (_req, res) => {
    sendPage(res, 200, sinksPage(listSinks(db), ctx.config.baseUrl));
  });

  /** JSON for tools (curl sends `*\/*`), the HTML page for browsers. */
  router.get('/sink/:name', (req, res) => {
    const sink = sinkNamed(req.params.name);
    const query = validate(SinkQuery, req.query, { hint: 'limit must be a whole number from 1 to 1000, before a delivery id (a whole number).' });
    if (req.accepts(['json', 'html']) === 'html') {
      const page = listSinkEvents(db, sink.id, (query.limit ?? SINK_PAGE_SIZE) + 1, query.before);
      const shown = page.slice(0, query.limit ?? SINK_PAGE_SIZE);
      sendPage(res, 200, sinkPage(sink, shown, ctx.config.baseUrl, { before: query.before, older: page.length > shown.length }));
    } else res.json({ sink: sinkJson(sink), data: listSinkEvents(db, sink.id, query.limit ?? 100, query.before).map(sinkEventJson) });
  });

  function deliveryNamed(id: string): Delivery {
    const delivery = findDelivery(db, id);
    if (!delivery) throw new ControlError('not_found', { message: `No delivery ${id}; see GET /_emulator/deliveries.` });
    return delivery;
  }

  return router;
}


function parsedOrText(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}
