/**
 * Round four, item 3: the sink page shows what a stray caller sent, its headers and body, through
 * the one redaction the logs use: a header or field named like a secret (`X-Api-Key`, `X-Token`,
 * `api_key`, `apiKey`) keeps its name and loses its value, and our secrets by their shape go wherever they sit.
 */
import { expect, test } from 'vitest';
import { testWorld } from '../world.js';

test('the sink page shows secrets in headers and bodies redacted, under any name', async () => {
  const t = testWorld();
  await t.api.post('/_emulator/sinks').send({ name: 'crm' }).expect(201);
  const live = `pk_live_${'Ab3'.repeat(8)}`;
  const token = `rt_${'x9'.repeat(12)}`;
  const body = { api_key: 'plain-api-key-value', nested: { apiKey: 'camel-key-value', client_secret: 'client-secret-value' }, delivery_state: 'delivered', note: 'kept' };
  await t.api.post('/_emulator/sink/crm').set('X-Api-Key', live).set('X-Token', token).set('X-Auth-Token', 'opaque-auth-value')
    .set('Proxy-Authorization', 'Basic proxy-value').set('X-Note', 'visible-header').send(body).expect(400);

  const page = (await t.api.get('/_emulator/sink/crm').set('Accept', 'text/html').expect(200)).text;
  for (const secret of [live, token, 'opaque-auth-value', 'proxy-value', 'plain-api-key-value', 'camel-key-value', 'client-secret-value']) expect(page).not.toContain(secret);
  for (const name of ['x-api-key', 'x-token', 'x-auth-token', 'proxy-authorization']) expect(page).toContain(`<td><code>${name}</code></td><td><code>[redacted]</code></td>`);
  expect(page).toContain('<td><code>x-note</code></td><td><code>visible-header</code></td>');
  expect(page).toContain('&quot;api_key&quot;: &quot;[redacted]&quot;');
  expect(page).toContain('&quot;delivery_state&quot;: &quot;delivered&quot;');
  expect(page).toContain('&quot;note&quot;: &quot;kept&quot;');

  // The headers are kept redacted; the body as received, for a receiver's own signature check.
  const kept = (await t.api.get('/_emulator/sink/crm/deliveries').expect(200)).body.data[0];
  expect(JSON.stringify(kept.headers)).not.toMatch(/pk_live_|rt_x9|opaque-auth-value|proxy-value/);
  expect(JSON.parse(kept.body)).toEqual(body);
});
