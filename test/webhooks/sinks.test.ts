import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { signatureHeader } from '../../emulator/domain/webhook-signing.js';
import { type RunningEmulator, recordScan, runningEmulator } from './emulator.js';

const started: RunningEmulator[] = [];
const temp: string[] = [];
afterEach(async () => {
  for (const t of started.splice(0)) await t.running.close();
  for (const dir of temp.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const start = async (data?: string) => {
  const t = await runningEmulator({ data });
  started.push(t);
  return t;
};

test('a sink name must be lower-case letters, digits and hyphens, and unique', async () => {
  const t = await start();
  expect((await t.api.post('/_emulator/sinks').send({ name: 'Bad Name' })).body.details).toEqual({ name: [expect.stringContaining('lower-case')] });
  await t.createSink({ name: 'crm' });
  const again = await t.api.post('/_emulator/sinks').send({ name: 'crm' });
  expect(again.status).toBe(400);
  expect(again.body.details).toEqual({ name: ['is already taken'] });
  expect((await t.api.post('/_emulator/sinks').send({ name: 'x', respond_with: 99 })).body.details).toEqual({ respond_with: ['must be 200 to 599'] });
});

test('posting to an unknown sink is 404, and so is reading one', async () => {
  const t = await start();
  expect((await t.api.post('/_emulator/sink/nobody').send({})).status).toBe(404);
  expect((await t.api.get('/_emulator/sink/nobody').set('Accept', 'application/json')).status).toBe(404);
});

test('a delivery whose signature does not verify is kept with the reason and answered 400', async () => {
  const t = await start();
  await t.createSink({ name: 'crm' });
  const forged = await t.api.post('/_emulator/sink/crm').set('X-Service-Event', 'scan.processed').set('X-Service-Signature', `t=${Math.floor(t.world.clock.now() / 1000)},v1=${'0'.repeat(64)}`).send({ forged: true });
  expect(forged.status).toBe(400);
  expect(forged.body).toMatchObject({ error: 'invalid_signature' });
  const unsigned = await t.api.post('/_emulator/sink/crm').send({ unsigned: true });
  expect(unsigned.status).toBe(400);
  const [last, first] = await t.sinkEvents('crm');
  expect(first).toMatchObject({ verified: false, problem: expect.stringContaining('does not match'), payload: { forged: true } });
  expect(last).toMatchObject({ verified: false, problem: 'no X-Service-Signature header', payload: { unsigned: true } });
});

test('a sink answering 205 sends no content, as HTTP wants of a 205', async () => {
  const t = await start();
  const sink = await t.createSink({ name: 'resetter', respond_with: 205 });
  const body = JSON.stringify({ delivered: true });
  const answer = await t.api.post('/_emulator/sink/resetter').set('Content-Type', 'application/json')
    .set('X-Service-Signature', signatureHeader(sink.endpoint.secret, Math.floor(t.world.clock.now() / 1000), body)).send(body);
  expect(answer.status).toBe(205);
  expect(answer.headers['content-length']).toBe('0');
  expect(answer.text ?? '').toBe('');
});

test('the sink page escapes everything it shows and loads nothing from elsewhere', async () => {
  const t = await start();
  await t.createSink({ name: 'crm' });
  await t.api.post('/_emulator/sink/crm').set('X-Service-Event', '<img src=x onerror=alert(1)>').send({ note: '</pre><script>alert(1)</script>' });
  const page = await t.api.get('/_emulator/sink/crm').set('Accept', 'text/html').expect(200);
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(page.headers['content-security-policy']).toContain("default-src 'none'");
  expect(page.text).not.toContain('<script>alert(1)');
  expect(page.text).not.toContain('<img src=x');
  expect(page.text).toContain('&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(page.text).not.toMatch(/(src|href)="https?:\/\/(?!127\.0\.0\.1)/);
  const dashboard = await t.api.get('/_emulator/sink').expect(200);
  expect(dashboard.text).toContain('href="/_emulator/sink/crm"');
});

test('a sink created through the control API has its own endpoint and secret, listed without the secret', async () => {
  const t = await start();
  const sink = await t.createSink({ name: 'crm', respond_with: 202 });
  expect(sink).toMatchObject({ name: 'crm', url: `${t.running.baseUrl}/_emulator/sink/crm`, respond_with: 202, endpoint: { id: sink.endpoint_id, url: sink.url, secret: expect.stringMatching(/^whsec_/) } });
  const endpoints = (await t.api.get('/_emulator/webhooks').expect(200)).body.data;
  expect(endpoints).toEqual([{ id: sink.endpoint_id, url: sink.url, events: sink.endpoint.events, created_at: expect.any(String) }]);
  expect((await t.api.get('/_emulator/sinks').expect(200)).body.data).toEqual([expect.objectContaining({ name: 'crm', received: 0 })]);
});

test('sink events, endpoints and pending deliveries survive a restart of the emulator', async () => {
  const data = mkdtempSync(join(tmpdir(), 'emulator-sink-'));
  temp.push(data);
  const first = await start(data);
  await first.createSink({ name: 'crm' });
  await first.createSink({ name: 'flaky', respond_with: 500 });
  recordScan(first.world);
  const [received] = await first.received('crm', 1);
  const [refused] = await first.received('flaky', 1);
  await started.shift()!.running.close();

  const second = await start(data);
  expect(await second.sinkEvents('crm')).toEqual([received]);
  await second.api.post('/_emulator/sinks/flaky').send({ respond_with: 200 }).expect(200);
  await second.api.post('/_emulator/clock').send({ advance: '30s' }).expect(200);
  const [retried] = await second.received('flaky', 2);
  expect(retried).toMatchObject({ delivery: refused!.delivery, verified: true });
  recordScan(second.world);
  expect((await second.received('crm', 2))[0]).toMatchObject({ event: 'scan.processed', verified: true });
});
