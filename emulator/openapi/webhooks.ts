/**
 * The webhook events of the reporting API's OpenAPI document (OpenAPI 3.1 `webhooks`): each is a
 * signed POST of the envelope `{id, event, occurred_at, brand, data}`.
 * @see spec §6, public reference §4 (headers, signature, retries, envelope)
 */
import { z } from 'zod';
import { BatchSchema, BrandSchema, ScanOutcomeSchema } from '../reporting/responses.js';
import type { WebhookEvent } from '../store/webhooks.js';
import { ActivationEnteredSchema } from '../webhooks/payloads.js';
import type { HeaderDoc, WebhookDoc } from './document.js';
import { apiDocs } from '../api-docs.js';
import { EVENT_EXAMPLES } from './reporting-examples.js';

const SIGNATURE =
  '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the endpoint\'s signing secret (`whsec_…`, shown once when the endpoint is added). ' +
  'Verify it on the raw body, compare in constant time, and refuse a `t` more than 300 seconds from now, either way. ' +
  "`t` comes from the emulator's virtual clock: after moving the clock, compare it with `GET /_emulator/clock`.";

const ANSWERS = {
  '2XX': 'Delivered: any 2xx answer.',
  default:
    "Anything else, or no answer within 10 seconds, is retried under the same `X-Service-Delivery` after 30 s, 2 min, 10 min, 1 h and 6 h of the emulator's clock; then the delivery fails (it can still be replayed).",
};

const DeliveryId = z.string().regex(/^dlv_[0-9a-f]{24}$/).register(apiDocs, { examples: ['dlv_5e0c1f9a2b7d43e8a61c0d9f'] });
const Signature = z
  .string()
  .regex(/^t=\d+,v1=[0-9a-f]{64}$/)
  .register(apiDocs, { examples: ['t=1795255200,v1=6a1f0c3e9b2d4f8a7c5e1b0d3f9a2c4e6b8d0f1a3c5e7b9d2f4a6c8e0b1d3f5a'] });

const headers = (event: WebhookEvent): Record<string, HeaderDoc> => ({
  'X-Service-Event': { description: 'The event name.', schema: z.literal(event) },
  'X-Service-Delivery': { description: 'This delivery: the same on every retry, so dedupe on it. A replay is a new delivery of the same envelope.', schema: DeliveryId },
  'X-Service-Signature': { description: SIGNATURE, schema: Signature },
  'User-Agent': { description: 'The sender.', schema: z.literal('service-webhooks/1.0') },
  'Content-Type': { description: 'The body is the JSON envelope.', schema: z.literal('application/json') },
});

const EventId = z.string().regex(/^[0-9a-f]{32}$/).register(apiDocs, { description: 'The event: the same in every delivery of it, replays included.' });

const envelope = (event: WebhookEvent, data: z.ZodType, id: string) =>
  z.strictObject({ id: EventId, event: z.literal(event), occurred_at: z.iso.datetime(), brand: BrandSchema, data }).register(apiDocs, { id });

const webhook = (event: WebhookEvent, operationId: string, summary: string, description: string, data: z.ZodType, id: string): WebhookDoc => ({
  operationId, summary, description, headers: headers(event), body: envelope(event, data, id), examples: EVENT_EXAMPLES[event], answers: ANSWERS,
});

export const WEBHOOKS: Record<WebhookEvent, WebhookDoc> = {
  'scan.processed': webhook(
    'scan.processed', 'scanProcessed', 'A production scan was processed',
    'Every production scan; tester scans never. `data` is the scan outcome, the same shape as GET /brands/{slug}/scans/{id}, so one parser serves both. (spec §6)',
    ScanOutcomeSchema, 'ScanProcessedEvent',
  ),
  'activation.entered': webhook(
    'activation.entered', 'activationEntered', 'A production entry was made',
    'Every production entry, through the agency or the hosted page; sandbox entries never.',
    ActivationEnteredSchema, 'ActivationEnteredEvent',
  ),
  'batch.generated': webhook(
    'batch.generated', 'batchGenerated', 'The codes of a batch are generated',
    'Follows POST /brands/{slug}/skus/{id}/batches once the codes exist. `data` is the batch. (spec §3, §6)',
    BatchSchema, 'BatchGeneratedEvent',
  ),
  'batch.export_ready': webhook(
    'batch.export_ready', 'batchExportReady', "A batch's CSV can be downloaded",
    'Follows `batch.generated` once the downloadable file is available. `data` is the batch. (spec §3, §6)',
    BatchSchema, 'BatchExportReadyEvent',
  ),
};
