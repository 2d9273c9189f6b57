import { expect, test } from 'vitest';
import { API, BRAND, RIVAL_TOKEN, addRivalCompany, reportingWorld } from './reporting.js';

const ROUTES = ['/brands', `/brands/${BRAND}/scans`, `/brands/${BRAND}/scans/1`, `/brands/${BRAND}/collectors`, `/brands/${BRAND}/collectors/1`,
  `/brands/${BRAND}/redemptions`, `/brands/${BRAND}/skus`, `/brands/${BRAND}/skus/1/batches/1/download`];

test('every reporting endpoint answers 401 {"error":"unauthorized"} without a bearer token', async () => {
  const t = reportingWorld();
  for (const path of ROUTES) {
    const res = await t.get(path, null);
    expect(res.status, path).toBe(401);
    expect(res.body).toEqual({ error: 'unauthorized' });
    expect(res.headers['www-authenticate']).toBe('Bearer');
  }
  expect((await t.post(`/brands/${BRAND}/skus`, { name: 'x', prefix: 'AM-X' }, null)).status).toBe(401);
});

test('an unknown token, a token without the Bearer scheme and an agency key all get 401', async () => {
  const t = reportingWorld();
  expect((await t.get('/brands', `pkd_${'0'.repeat(64)}`)).status).toBe(401);
  expect((await t.api.get(`${API}/brands`).set('Authorization', t.env.reporting_token)).status).toBe(401);
  expect((await t.get('/brands', t.env.production_key)).status).toBe(401);
});

test('authentication comes before body parsing: a bad body without a token is still 401', async () => {
  const t = reportingWorld();
  const res = await t.api.post(`${API}/brands/${BRAND}/skus`).set('Content-Type', 'application/json').send('{not json');
  expect(res.status).toBe(401);
});

test("another company's brand is 404, not 403, on every brand route", async () => {
  const t = reportingWorld();
  const { slug } = addRivalCompany(t);
  for (const path of ROUTES.slice(1).map((route) => route.replace(BRAND, slug))) {
    const res = await t.get(path);
    expect(res.status, path).toBe(404);
    expect(res.body).toEqual({ error: 'not_found' });
  }
  expect((await t.post(`/brands/${slug}/skus`, { name: 'Rival bar', prefix: 'RV-BAR' })).status).toBe(404);
});

test("a rival company's token reaches its own brand and never ours", async () => {
  const t = reportingWorld();
  addRivalCompany(t);
  expect((await t.get('/brands', RIVAL_TOKEN)).body).toEqual({ data: [{ id: expect.any(Number), slug: 'rival', name: 'Rival', prefix: 'RV' }] });
  expect((await t.get(`/brands/${BRAND}/scans`, RIVAL_TOKEN)).status).toBe(404);
});

test('an unknown brand slug and an unknown route are 404 in the reporting error shape', async () => {
  const t = reportingWorld();
  expect((await t.get('/brands/no-such-brand/scans')).body).toEqual({ error: 'not_found' });
  expect((await t.get('/no-such-route')).status).toBe(404);
  expect((await t.get('/no-such-route')).body).toEqual({ error: 'not_found' });
});

test('GET /brands lists every brand of the company as {id, slug, name, prefix} inside data', async () => {
  const t = reportingWorld();
  const res = await t.get('/brands').expect(200);
  expect(res.body).toEqual({
    data: [
      { id: expect.any(Number), slug: 'alpenmilch', name: 'Alpenmilch', prefix: 'AM' },
      { id: expect.any(Number), slug: 'nordkakao', name: 'Nordkakao', prefix: 'NK' },
    ],
  });
});

test('the reporting API sends no CORS headers', async () => {
  const t = reportingWorld();
  const res = await t.get('/brands').set('Origin', 'https://evil.example');
  expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
});
