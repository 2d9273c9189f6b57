import { afterEach, beforeEach, expect, test } from 'vitest';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import { type RunningEmulator, recordScan, runningEmulator } from './emulator.js';

let t: RunningEmulator;
beforeEach(async () => {
  t = await runningEmulator();
});
afterEach(() => t.running.close());

test.each([
  [{}, { url: [expect.any(String)] }],
  [{ url: 'not a url' }, { url: ['must be an absolute http or https URL'] }],
  [{ url: 'ftp://crm.example/hooks' }, { url: ['must be an absolute http or https URL'] }],
  [{ url: 'https://crm.example/hooks', events: ['scan.created'] }, { 'events.0': [expect.stringContaining('must be one of scan.processed')] }],
  [{ url: 'https://crm.example/hooks', events: [] }, { events: ['must name at least one event'] }],
  [{ url: 'https://crm.example/hooks', secret: 'mine' }, { secret: ['unknown field'] }],
])('registering an endpoint with %j is 400 with details', async (body, details) => {
  const res = await t.api.post('/_emulator/webhooks').send(body);
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ error: 'invalid_request', details });
});

test('removing an unknown endpoint is 404; removing twice is 404 the second time', async () => {
  expect((await t.api.post('/_emulator/webhooks/99/remove').send({})).status).toBe(404);
  const { body } = await t.api.post('/_emulator/webhooks').send({ url: 'https://crm.example/hooks' }).expect(201);
  expect((await t.api.post(`/_emulator/webhooks/${body.id}/remove`).send({}).expect(200)).body).toEqual({ id: body.id, removed: true });
  expect((await t.api.post(`/_emulator/webhooks/${body.id}/remove`).send({})).status).toBe(404);
  expect((await t.api.get('/_emulator/webhooks')).body).toEqual({ data: [] });
});

test('an endpoint is registered with its events (all by default) and its secret is shown once', async () => {
  const all = await t.api.post('/_emulator/webhooks').send({ url: 'https://crm.example/hooks' }).expect(201);
  expect(all.body).toEqual({
    id: expect.any(Number), url: 'https://crm.example/hooks', events: ['scan.processed', 'activation.entered', 'batch.generated', 'batch.export_ready'],
    created_at: '2026-11-21T10:00:00.000Z', secret: expect.stringMatching(/^whsec_/),
  });
  const some = await t.api.post('/_emulator/webhooks').send({ url: 'https://erp.example/hooks', events: ['batch.export_ready'] }).expect(201);
  expect(some.body.secret).not.toBe(all.body.secret);
  const listed = (await t.api.get('/_emulator/webhooks').expect(200)).body;
  expect(JSON.stringify(listed)).not.toContain('whsec_');
  expect(listed.data.map((endpoint: { events: string[] }) => endpoint.events)).toEqual([all.body.events, ['batch.export_ready']]);
});

test('webhook secrets and the reporting token never reach the log', async () => {
  const sink = await t.createSink({ name: 'crm' });
  const endpoint = await t.api.post('/_emulator/webhooks').send({ url: 'http://127.0.0.1:9/hooks' }).expect(201);
  recordScan(t.world);
  await t.received('crm', 1);
  const token = envValues(t.world).reporting_token;
  await t.api.get('/api/v1/brands').set('Authorization', `Bearer ${token}`).expect(200);
  await t.api.get('/api/v1/brands').set('Authorization', 'Bearer pkd_wrong').expect(401);
  const log = t.logLines.join('');
  expect(log).toContain('webhook attempt');
  for (const secret of [sink.endpoint.secret, endpoint.body.secret, token]) expect(log).not.toContain(secret);
  expect(log).not.toMatch(/v1=[0-9a-f]{64}/);
});
