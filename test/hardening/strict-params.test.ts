/**
 * Round three, item 7: a state-changing call whose query names the promotion wrongly changes
 * nothing. `?promo=`, `?Promotion=` and `?promotion[]=` were ignored, so the pause hit the default
 * promotion; `?promotion=1.0` and `1e0` were read as 1; `/keys/1.0/revoke` revoked key 1. Unknown
 * query parameters on a change are a 400 naming them; ids are digits, exactly.
 */
import { expect, test } from 'vitest';
import { promotionEnv, testWorld } from '../world.js';

const paused = async (t: ReturnType<typeof testWorld>, promotion: number) =>
  (await t.api.get(`/_emulator/console?promotion=${promotion}`)).body.experience.routing_paused as boolean;

test('unknown query parameters on a change are a 400 naming them, and pause nothing', async () => {
  const t = testWorld();
  const other = promotionEnv(t, 'nordkakao-cafe-codes').id;
  for (const query of ['promo=nordkakao-cafe-codes', 'Promotion=2', 'promotion[]=2', 'promotion=2&promotion=2', 'promotion=2&force=1']) {
    const res = await t.api.post(`/_emulator/console/pause?${query}`).set('content-type', 'application/json').send({});
    expect(res.status, query).toBe(400);
    expect(res.body.error, query).toBe('invalid_request');
    const named = query.split('&').map((pair) => pair.split('=')[0]!).find((name) => name !== 'promotion');
    if (named) expect(res.body.message, query).toContain(JSON.stringify(named));
  }
  expect(await paused(t, t.env.promotion_id)).toBe(false);
  expect(await paused(t, other)).toBe(false);
});

test('a promotion id is its digits exactly: 1.0, 1e0, 01 and +1 name no promotion', async () => {
  const t = testWorld();
  const id = t.env.promotion_id;
  for (const ref of [`${id}.0`, `${id}e0`, `0${id}`, `+${id}`, ` ${id}`]) {
    const res = await t.api.post(`/_emulator/console/pause?promotion=${encodeURIComponent(ref)}`).set('content-type', 'application/json').send({});
    expect(res.status, ref).toBe(404);
  }
  expect(await paused(t, id)).toBe(false);
  expect((await t.api.post(`/_emulator/console/pause?promotion=${id}`).set('content-type', 'application/json').send({})).status).toBe(200);
  expect(await paused(t, id)).toBe(true);
});

test('a key or endpoint id in a path is its digits exactly', async () => {
  const t = testWorld();
  const keys = (await t.api.get('/_emulator/console/keys')).body.data as Array<{ id: number; status: string }>;
  const key = keys[0]!;
  for (const ref of [`${key.id}.0`, `${key.id}e0`]) {
    expect((await t.api.post(`/_emulator/console/keys/${ref}/revoke`).set('content-type', 'application/json').send({})).status, ref).toBe(400);
  }
  expect(((await t.api.get('/_emulator/console/keys')).body.data as typeof keys).find((k) => k.id === key.id)!.status).toBe(key.status);

  const endpoint = (await t.api.post('/_emulator/webhooks').send({ url: 'https://agency.example/hooks' })).body as { id: number };
  expect((await t.api.post(`/_emulator/webhooks/${endpoint.id}.0/remove`).set('content-type', 'application/json').send({})).status).toBe(404);
  expect(((await t.api.get('/_emulator/webhooks')).body.data as Array<{ id: number }>).map((hook) => hook.id)).toContain(endpoint.id);
});

test('a count or cursor in a control query is its digits exactly too: 1e0, 1.0, 01, +1 and an empty value are a 400', async () => {
  const t = testWorld();
  await t.api.post('/_emulator/sinks').send({ name: 'crm' }).expect(201);
  const numbers = [
    '/_emulator/interactions?after', '/_emulator/interactions?limit', '/_emulator/observed?after', '/_emulator/observed?limit',
    '/_emulator/secrets?after_session', '/_emulator/packs?per_outcome', '/_emulator/deliveries?endpoint_id', '/_emulator/deliveries?limit',
    '/_emulator/sink/crm/deliveries?after', '/_emulator/sink/crm/deliveries?limit', '/_emulator/sink/crm?limit', '/_emulator/sink/crm?before',
  ];
  for (const route of numbers) {
    for (const bad of ['1e0', '1.0', '01', '+1', '', '0x1']) {
      const res = await t.api.get(`${route}=${encodeURIComponent(bad)}`).set('accept', 'application/json');
      expect([res.status, res.body.error], `${route}=${bad}`).toEqual([400, 'invalid_request']);
    }
    expect((await t.api.get(`${route}=1`).set('accept', 'application/json')).status, `${route}=1`).toBe(200);
  }
  // Up to the largest exact number, which the harness asks for as "the last call": one past it is none.
  expect((await t.api.get(`/_emulator/observed?after=${Number.MAX_SAFE_INTEGER}&limit=1`)).status).toBe(200);
  expect((await t.api.get(`/_emulator/observed?after=${Number.MAX_SAFE_INTEGER + 1}&limit=1`)).status).toBe(400);
});
