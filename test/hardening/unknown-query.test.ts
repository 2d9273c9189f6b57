/**
 * Round four, item 1: every control-plane and console route, reads included, refuses a query
 * parameter it does not take: a 400 naming it (JSON on the control plane and the console API, a
 * page on the dashboard), before the route runs. `?promo=` answered for the default promotion.
 */
import request from 'supertest';
import { expect, test } from 'vitest';
import { csrfOf } from '../journey/support.js';
import { promotionEnv, testWorld } from '../world.js';

/** Every route under /_emulator, with a path that reaches it. */
const READS = [
  '/health', '/env', '/promotions', '/clock', '/interactions', '/faults', '/observed', '/terms', '/packs', '/secrets', '/webhooks', '/deliveries',
  '/deliveries/1', '/sinks', '/sink', '/sink/crm', '/sink/crm/deliveries', '/sink/live.js', '/api-docs', '/api-docs/experience', '/api-docs/assets/start.js',
  '/console', '/console/keys', '/console/checklist', '/console/log',
];
const CHANGES = [
  '/clock', '/reset', '/faults', '/faults/clear', '/terms', '/deliveries/settle', '/webhooks', '/webhooks/1/remove', '/deliveries/1/replay', '/sinks',
  '/sinks/crm', '/sink/crm', '/seed', '/console/keys', '/console/keys/1/rotate', '/console/keys/1/revoke', '/console/callbacks', '/console/approve',
  '/console/pause', '/console/resume',
];

test('the reads the issue named: ?promo= and ?promotion[]= on console keys, ?promo= on env', async () => {
  const t = testWorld();
  for (const path of ['/_emulator/console/keys?promo=2', '/_emulator/console/keys?promotion[]=2', '/_emulator/env?promo=2']) {
    const res = await t.api.get(path);
    expect(res.status, path).toBe(400);
    const name = path.split('?')[1]!.split('=')[0]!;
    expect(res.body, path).toEqual({ error: 'invalid_request', message: expect.stringContaining(JSON.stringify(name)), details: { [name]: ['unknown field'] } });
    expect(res.body.message, path).toContain('?promotion=');
  }
});

test('every control-plane and console API route refuses an unknown query parameter before it runs', async () => {
  const t = testWorld();
  await t.api.post('/_emulator/sinks').send({ name: 'crm' }).expect(201);
  const state = async () => JSON.stringify([(await t.api.get('/_emulator/console')).body, (await t.api.get('/_emulator/clock')).body, (await t.api.get('/_emulator/sinks')).body]);
  const before = await state();
  for (const path of READS) {
    const res = await t.api.get(`/_emulator${path}?zzz=1`);
    expect(res.status, `GET ${path}`).toBe(400);
    expect(res.body, `GET ${path}`).toMatchObject({ error: 'invalid_request', details: { zzz: ['unknown field'] } });
  }
  for (const path of CHANGES) {
    const res = await t.api.post(`/_emulator${path}?zzz=1`).set('content-type', 'application/json').send({});
    expect(res.status, `POST ${path}`).toBe(400);
    expect(res.body, `POST ${path}`).toMatchObject({ error: 'invalid_request', details: { zzz: ['unknown field'] } });
  }
  expect(await state()).toBe(before);
});

test('a parameter a route takes is refused when given twice, and still read when given once', async () => {
  const t = testWorld();
  const other = promotionEnv(t, 'nordkakao-cafe-codes');
  const twice = await t.api.get(`/_emulator/env?promotion=${other.id}&promotion=${other.id}`);
  expect(twice.status).toBe(400);
  expect(twice.body).toMatchObject({ error: 'invalid_request', message: 'Give "promotion" once.', details: { promotion: ['must be given once'] } });
  expect((await t.api.get(`/_emulator/env?promotion=${other.id}`).expect(200)).body.promotion_id).toBe(other.id);
  expect((await t.api.get('/_emulator/console/keys?promotion=nordkakao-cafe-codes').expect(200)).body.promotion.slug).toBe('nordkakao-cafe-codes');
  expect((await t.api.get('/_emulator/interactions?after=0&limit=5').expect(200)).body.data).toEqual([]);
  // Unknown names are said at most five, cut to 40 characters: the query is the caller's text.
  const many = await t.api.get(`/_emulator/clock?${Array.from({ length: 8 }, (_, n) => `${n}${'x'.repeat(60)}=1`).join('&')}`);
  expect(many.status).toBe(400);
  expect(Object.keys(many.body.details)).toEqual([0, 1, 2, 3, 4].map((n) => `${n}${'x'.repeat(39)}`));
});

test('the dashboard page and its forms refuse an unknown query parameter with a page naming it', async () => {
  const t = testWorld();
  const browser = request.agent(t.app);
  const page = await browser.get('/?promotion=nordkakao-cafe-codes&done=paused').expect(200);
  for (const path of ['/?promo=nordkakao-cafe-codes', '/?promotion=a&promotion=b', '/console/live-log.js?v=2']) {
    const res = await browser.get(path);
    expect(res.status, path).toBe(400);
    expect(res.type, path).toBe('text/html');
  }
  expect((await browser.get('/?promo=nordkakao-cafe-codes')).text).toContain('&quot;promo&quot;');
  const paused = await browser.post('/console/pause?promo=nordkakao-cafe-codes').type('form').send({ csrf: csrfOf(page.text) });
  expect(paused.status).toBe(400);
  expect(paused.text).toContain('&quot;promo&quot;');
  expect((await t.api.get('/_emulator/console?promotion=nordkakao-cafe-codes')).body.experience.routing_paused).toBe(false);
  expect((await t.api.get('/_emulator/console')).body.experience.routing_paused).toBe(false);
});

test('the dashboard reads its forms by zod too: a key id is its digits exactly, an environment one of two', async () => {
  const t = testWorld();
  const browser = request.agent(t.app);
  const page = await browser.get('/').expect(200);
  const key = ((await t.api.get('/_emulator/console/keys')).body.data as Array<{ id: number; status: string }>)[0]!;
  for (const path of [`/console/keys/${key.id}.0/revoke`, `/console/keys/${key.id}e0/rotate`]) {
    const res = await browser.post(path).type('form').send({ csrf: csrfOf(page.text) });
    expect(res.status, path).toBe(400);
    expect(res.text, path).toContain('A key id is a whole number');
  }
  expect(((await t.api.get('/_emulator/console/keys')).body.data as Array<{ id: number; status: string }>).find((k) => k.id === key.id)!.status).toBe(key.status);
  const keys = (await t.api.get('/_emulator/console/keys')).body.data.length as number;
  expect((await browser.post('/console/keys').type('form').send({ csrf: csrfOf(page.text), environment: 'staging' })).status).toBe(400);
  expect((await t.api.get('/_emulator/console/keys')).body.data).toHaveLength(keys);
  expect((await browser.post(`/console/keys/${key.id}/revoke`).type('form').send({ csrf: csrfOf(page.text) })).status).toBe(303);
});
