import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import { REPORTING_API } from '../../emulator/openapi/reporting.js';
import { WEBHOOK_EVENTS } from '../../emulator/store/webhooks.js';
import { type Captured, type RunningEmulator, captureReceiver, enterProduction, recordScan, runningEmulator } from '../webhooks/emulator.js';
import { type OpenApiDoc, validatorOf } from './support.js';

/** One real delivery of every event, to a receiver that keeps the raw requests. */
describe("the reporting API document's webhooks", () => {
  let t: RunningEmulator;
  let receiver: Awaited<ReturnType<typeof captureReceiver>>;
  let doc: OpenApiDoc;
  let secret: string;
  const delivered = (event: string): Captured => receiver.requests.find((request) => request.headers['x-service-event'] === event)!;

  beforeAll(async () => {
    t = await runningEmulator();
    receiver = await captureReceiver();
    doc = (await t.api.get('/api/v1/openapi.json').expect(200)).body as OpenApiDoc;
    secret = (await t.api.post('/_emulator/webhooks').send({ url: receiver.url }).expect(201)).body.secret as string;
    recordScan(t.world);
    await enterProduction(t);
    const env = envValues(t.world);
    await t.api.post(`/api/v1/brands/${env.brand_slug}/skus/1/batches`).set('Authorization', `Bearer ${env.reporting_token}`).send({ quantity: 3, purpose: 'webhook document' }).expect(202);
    await vi.waitFor(() => expect(new Set(receiver.requests.map((request) => request.headers['x-service-event']))).toEqual(new Set(WEBHOOK_EVENTS)), { timeout: 10_000, interval: 20 });
  });
  afterAll(async () => {
    await receiver.close();
    await t.running.close();
  });

  it('document exactly the events the emulator sends, as POSTs', () => {
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual([...WEBHOOK_EVENTS].sort());
    expect(Object.values(doc.webhooks!).every((item) => Object.keys(item).join() === 'post')).toBe(true);
  });

  it.each(WEBHOOK_EVENTS)('%s: the delivered body is valid by the documented schema, and a body with an undocumented field is not', (event) => {
    const body = JSON.parse(delivered(event).body) as Record<string, unknown>;
    const { schema } = doc.webhooks![event]!.post.requestBody!.content['application/json']!;
    expect(validatorOf(doc, schema).safeParse(body).error).toBeUndefined();
    expect(REPORTING_API.webhooks![event]!.body.safeParse(body).error).toBeUndefined();
    expect(validatorOf(doc, schema).safeParse({ ...body, undocumented: true }).success).toBe(false);
  });

  it.each(WEBHOOK_EVENTS)('%s: every documented header was sent and is valid by its schema', (event) => {
    const headers = delivered(event).headers;
    const documented = doc.webhooks![event]!.post.parameters!.filter((parameter) => parameter.in === 'header');
    expect(documented.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(['X-Service-Event', 'X-Service-Delivery', 'X-Service-Signature']));
    for (const parameter of documented) {
      const value = headers[parameter.name.toLowerCase()];
      expect(value, parameter.name).toBeDefined();
      expect(validatorOf(doc, parameter.schema).safeParse(value).error, `${parameter.name}: ${String(value)}`).toBeUndefined();
    }
  });

  it('the signature is what the document says: v1 is the hex HMAC-SHA256 of "t.body" with the endpoint secret', () => {
    const description = doc.webhooks!['scan.processed']!.post.parameters!.find((parameter) => parameter.name === 'X-Service-Signature') as { description?: string };
    expect(description.description).toContain('300 seconds');
    for (const request of receiver.requests) {
      const [, at, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(request.headers['x-service-signature'] as string)!;
      expect(v1).toBe(createHmac('sha256', secret).update(`${at}.${request.body}`).digest('hex'));
    }
  });
});
