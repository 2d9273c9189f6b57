/**
 * Round three, item 11: input that means something else once normalized. A webhook URL naming
 * 169.254.169.254 in an IPv6 form (IPv4-compatible `[::169.254.169.254]`, NAT64 `64:ff9b::/96`,
 * 6to4) is link-local too; a body whose bytes are not UTF-8 is refused, not read with U+FFFD in
 * their place; a body naming a key twice in one object is refused (README, Security), as two
 * readers may each keep another of the two.
 */
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { testWorld } from '../world.js';

/** Posts these exact bytes (supertest would serialize a Buffer as JSON). */
async function postBytes(t: ReturnType<typeof testWorld>, path: string, bytes: Buffer, key?: string): Promise<{ status: number; body: any }> {
  const server = t.app.listen(0, '127.0.0.1');
  await new Promise((listening) => server.once('listening', listening));
  try {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) };
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, { method: 'POST', headers, body: bytes });
    return { status: res.status, body: await res.json() };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

test('webhook URLs to 169.254.0.0/16 in any IPv6 form are refused as link-local', async () => {
  const t = testWorld();
  const urls = [
    'http://[::169.254.169.254]/latest', 'http://[::a9fe:a9fe]/latest', 'http://[64:ff9b::a9fe:a9fe]/latest', 'http://[64:ff9b::169.254.169.254]/latest',
    'http://[::ffff:169.254.169.254]/latest', 'http://[2002:a9fe:a9fe::1]/latest',
  ];
  for (const url of urls) {
    const res = await t.api.post('/_emulator/webhooks').send({ url });
    expect(res.status, url).toBe(400);
    expect(res.body.details.url[0], url).toContain('link-local');
  }
  // Not every embedded address is link-local.
  expect((await t.api.post('/_emulator/webhooks').send({ url: 'http://[64:ff9b::808:808]/hooks' })).status).toBe(201);
  expect(((await t.api.get('/_emulator/webhooks')).body.data as unknown[]).length).toBe(1);
});

test('a body that is not UTF-8 is a 400, on the experience API and the control plane', async () => {
  const t = testWorld();
  // "Zürich" in Latin-1: 0xFC is no UTF-8.
  const latin1 = Buffer.concat([Buffer.from('{"country": "Z'), Buffer.from([0xfc]), Buffer.from('rich"}')]);
  const experience = await postBytes(t, '/api/experience/v1/sessions', latin1, t.env.sandbox_key!);
  expect(experience.status).toBe(400);
  expect(experience.body).toMatchObject({ error: 'invalid_request', details: { '(body)': ['must be UTF-8 JSON'] } });
  const control = await postBytes(t, '/_emulator/sinks', Buffer.concat([Buffer.from('{"name": "s'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]));
  expect(control.status).toBe(400);
  expect(control.body.details).toEqual({ '(body)': ['must be UTF-8 JSON'] });
  expect(((await t.api.get('/_emulator/sinks')).body.data as unknown[]).length).toBe(0);
});

test('a body naming a key twice in one object is a 400 naming the key', async () => {
  const t = testWorld();
  const twice = '{"authorization_code": "a", "code_verifier": "b", "authorization_code": "c"}';
  const res = await t.experience('post', '/sessions').set('content-type', 'application/json').send(twice);
  expect(res.status).toBe(400);
  expect(res.body.message).toContain('"authorization_code"');
  // Escapes name the same key; nested objects and arrays are checked; the same key in two objects is fine.
  const escaped = await t.api.post('/_emulator/sinks').set('content-type', 'application/json').send('{"name": "x", "n\\u0061me": "y"}');
  expect(escaped.status).toBe(400);
  const nested = await t.api.post('/_emulator/clock').set('content-type', 'application/json').send('{"freeze": [{"a": 1, "b": {"c": 1, "c": 2}}]}');
  expect(nested.body.message).toContain('"c"');
  const fine = await t.api.post('/_emulator/webhooks').set('content-type', 'application/json').send('{"url": "https://agency.example/hooks", "events": ["scan.processed"]}');
  expect(fine.status).toBe(201);
  const siblings = await t.api.post('/_emulator/faults').set('content-type', 'application/json').send('{"next": {"path": "/session", "match": {"pack": "X"}}, "extra": {"path": "y"}}');
  expect(siblings.body.message ?? '').not.toContain('twice');
});
