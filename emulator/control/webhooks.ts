/**
 * Webhooks on the control plane: endpoints (`emulator webhooks add|list|remove`), deliveries with
 * every attempt, replay, and the built-in sinks with their pages. Actions are POSTs, as elsewhere
 * on the control plane. Mounted in control/plane.ts, after the JSON body reader and behind the
 * control guard.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { anyone, endpointTable, noInput } from '../endpoints.js';
import { ControlError, noSink, sinkNamed } from './errors.js';
import { IdText, WholeText, validate } from '../validation.js';
import { listSinkEvents, listSinks } from '../store/sinks.js';
import { WEBHOOK_EVENTS, listEndpoints } from '../store/webhooks.js';
import {
  MAX_ENDPOINTS, addEndpoint, addSink, answerSinkWith, listDeliveryRecords, readDelivery, removeWebhookEndpoint, replayDelivery,
} from '../use-cases/webhooks/endpoints.js';
import { linkLocalProblem } from '../webhooks/link-local.js';
import { replayDelivery as enqueueReplay } from '../webhooks/outbox.js';
import { sinkPage, sinksPage } from '../webhooks/sink-page.js';
import { webhooksJson } from './webhooks-json.js';

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

const limitReached = () => new ControlError('limit_reached', { message: `The emulator sends to at most ${MAX_ENDPOINTS} webhook endpoints, sinks included; remove one first (POST /_emulator/webhooks/ID/remove, or \`emulator webhooks remove ID\`).` });
const noDelivery = (_reason: 'not_found', _caller: undefined, id: string) => new ControlError('not_found', { message: `No delivery ${id}; see GET /_emulator/deliveries.` });

export function webhooksControlRouter(ctx: Context): Router {
  const router = Router();
  const endpoint = endpointTable(router, { ctx });
  const json = webhooksJson(ctx.config.baseUrl);
  const data = <Row>(rows: Row[], serialize: (row: Row) => object) => ({ status: 200, body: { data: rows.map(serialize) } });

  endpoint({
    method: 'get', path: '/webhooks', caller: anyone,
    input: noInput,
    run: (on) => listEndpoints(on.db),
    answer: (endpoints) => data([...endpoints], json.endpointJson),
  });
  /** The secret is in this answer only. */
  endpoint({
    method: 'post', path: '/webhooks', caller: anyone,
    input: (req) => {
      const hint = 'Send {"url": "https://…", "events": ["scan.processed", …]}; events default to all.';
      const body = validate(EndpointBody, req.body, { hint });
      const problem = ctx.config.allowLinkLocalWebhooks ? undefined : linkLocalProblem(body.url);
      if (problem) throw new ControlError('invalid_request', { message: `${hint} The url ${problem}.`, details: { url: [problem] } });
      return body;
    },
    run: (on, _caller, body) => addEndpoint(on, body),
    refusal: limitReached,
    answer: (added) => ({ status: 201, body: json.addedJson(added, ctx.seed) }),
  });
  endpoint({
    method: 'post', path: '/webhooks/:id/remove', caller: anyone,
    input: (req) => ({ text: req.params.id!, id: IdText.safeParse(req.params.id).data }),
    run: (on, _caller, { id }) => removeWebhookEndpoint(on, id),
    refusal: (_reason, _caller, { text }) => new ControlError('not_found', { message: `No webhook endpoint ${text}; see GET /_emulator/webhooks.` }),
    answer: ({ id }) => ({ status: 200, body: { id, removed: true } }),
  });
  endpoint({
    method: 'get', path: '/deliveries', caller: anyone,
    input: (req) => validate(DeliveryQuery, req.query, { hint: 'endpoint_id and limit (1 to 1000) must be whole numbers.' }),
    run: (on, _caller, query) => listDeliveryRecords(on, { endpointId: query.endpoint_id, limit: query.limit }),
    answer: (records) => data(records, json.deliveryJson),
  });
  endpoint({
    method: 'get', path: '/deliveries/:id', caller: anyone,
    input: (req) => req.params.id!,
    run: (on, _caller, id) => readDelivery(on, id),
    refusal: noDelivery,
    answer: (record) => ({ status: 200, body: json.deliveryJson(record) }),
  });
  endpoint({
    method: 'post', path: '/deliveries/:id/replay', caller: anyone,
    input: (req) => req.params.id!,
    run: (on, _caller, id) => replayDelivery(on, id, (delivery) => enqueueReplay(on, delivery)),
    refusal: noDelivery,
    answer: (record) => ({ status: 202, body: json.deliveryJson(record) }),
  });
  endpoint({
    method: 'get', path: '/sinks', caller: anyone,
    input: noInput,
    run: (on) => listSinks(on.db),
    answer: (sinks) => data(sinks, (sink) => ({ ...json.sinkJson(sink), received: sink.received })),
  });
  /** The sink's endpoint secret is in this answer only; the sink itself verifies with it. */
  endpoint({
    method: 'post', path: '/sinks', caller: anyone,
    input: (req) => validate(SinkBody, req.body, { hint: 'Send {"name": "crm"}, optionally with "events" and "respond_with" (an HTTP status).' }),
    run: (on, _caller, body) => addSink(on, body),
    refusal: (reason, _caller, body) => (reason === 'limit_reached' ? limitReached() : new ControlError('invalid_request', { message: `A sink named "${body.name}" exists.`, details: { name: ['is already taken'] } })),
    answer: ({ sink, added }) => ({ status: 201, body: { ...json.sinkJson(sink), endpoint: json.addedJson(added, ctx.seed) } }),
  });
  endpoint({
    method: 'post', path: '/sinks/:name', caller: anyone,
    input: (req) => ({ name: req.params.name!, ...validate(SinkUpdate, req.body, { hint: 'Send {"respond_with": 500} to make the sink fail, {"respond_with": 200} to heal it.' }) }),
    run: (on, _caller, { name, respond_with }) => answerSinkWith(on, name, respond_with),
    refusal: (_reason, _caller, { name }) => noSink(name),
    answer: (sink) => ({ status: 200, body: json.sinkJson(sink) }),
  });
  endpoint({
    method: 'get', path: '/sink', caller: anyone,
    input: noInput,
    run: (on) => listSinks(on.db),
    answer: (sinks) => ({ status: 200, page: sinksPage(sinks, ctx.config.baseUrl) }),
  });
  /** JSON for tools (curl sends `*\/*`), the HTML page for browsers. */
  endpoint({
    method: 'get', path: '/sink/:name', caller: (req) => sinkNamed(ctx.db, req.params.name),
    input: (req) => ({
      query: validate(SinkQuery, req.query, { hint: 'limit must be a whole number from 1 to 1000, before a delivery id (a whole number).' }),
      page: req.accepts(['json', 'html']) === 'html',
    }),
    run: (on, sink, { query, page }) => {
      const limit = query.limit ?? (page ? SINK_PAGE_SIZE : 100);
      return listSinkEvents(on.db, sink.id, page ? limit + 1 : limit, query.before);
    },
    answer: (events, sink, { query, page }) => {
      if (!page) return { status: 200, body: { sink: json.sinkJson(sink), data: events.map(json.sinkEventJson) } };
      const shown = events.slice(0, query.limit ?? SINK_PAGE_SIZE);
      return { status: 200, page: sinkPage(sink, shown, ctx.config.baseUrl, { before: query.before, older: events.length > shown.length }) };
    },
  });

  return router;
}
