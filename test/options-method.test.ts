/** OPTIONS is answered like any method without an endpoint: no area grants a preflight, as every call comes from a server. */
import request from 'supertest';
import { expect, it } from 'vitest';
import { packCode } from './journey/support.js';
import { testWorld } from './world.js';

it('answers OPTIONS like any method without an endpoint: a JSON 404 in the area\'s error shape, never 200 text/plain', async () => {
  const t = testWorld();
  const paths = [
    '/api/experience/v1/campaign', '/api/experience/v1/sessions', '/api/experience/v1/openapi.json', '/api/v1/brands', '/api/v1/brands/alpenmilch/scans',
    '/_emulator/health', '/_emulator/clock', '/_emulator/sink/crm', '/_emulator/console/keys', '/', '/sign-in', `/q/${packCode(t)}`, '/console/pause', '/nowhere',
  ];
  for (const path of paths) {
    const res = await request(t.app).options(path).set('Origin', 'https://agency.example').set('Access-Control-Request-Method', 'POST');
    expect(res.status, path).toBe(404);
    expect(res.headers['content-type'], path).toBe('application/json; charset=utf-8');
    expect(res.headers['access-control-allow-origin'], path).toBeUndefined();
    expect(res.headers.allow, path).toBeUndefined();
    expect(res.body, path).toEqual(path.startsWith('/api/v1') ? { error: 'not_found' } : { error: 'not_found', message: `No endpoint OPTIONS ${path.split('?')[0]}. See the README for the API's routes.` });
  }
});
