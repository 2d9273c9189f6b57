import { expect, test } from 'vitest';
import { findBrandBySlug } from '../../emulator/store/promotions.js';
import { listSkus } from '../../emulator/store/skus.js';
import { createBrandSku } from '../../emulator/use-cases/reporting/sku-create.js';
import { API, BRAND, reportingWorld } from './reporting.js';

const SKUS = `/brands/${BRAND}/skus`;

test.each([
  [{}, { name: ['is required'], prefix: ['is required'] }],
  [{ name: '  ', prefix: 'AM-NEW' }, { name: ['must not be empty'] }],
  [{ name: 'Bar', prefix: 'am-new' }, { prefix: [expect.stringContaining('upper-case letters and digits')] }],
  [{ name: 'Bar', prefix: 'AMNEW' }, { prefix: [expect.stringContaining('hyphen-separated')] }],
  [{ name: 'Bar', prefix: 'AM-ABCDEFGHIJ' }, { prefix: ['must be at most 12 characters'] }],
  [{ name: 42, prefix: 'AM-NEW' }, { name: ['must be text'] }],
  [{ name: 'Bar', prefix: 'AM-NEW', colour: 'brown' }, { colour: ['unknown field'] }],
])('creating a SKU with an invalid body %j is 422 with details', async (body, details) => {
  const t = reportingWorld();
  expect((await t.post(SKUS, body)).body).toEqual({ error: 'validation_failed', details });
});

test("a SKU prefix must start with the brand's prefix and a hyphen", async () => {
  const t = reportingWorld();
  const res = await t.post(SKUS, { name: 'Dark', prefix: 'NK-NEW' }).expect(422);
  expect(res.body).toEqual({ error: 'validation_failed', details: { prefix: ['must start with the brand prefix and a hyphen: AM-'] } });
});

test("the use case refuses a SKU outside its brand's prefix or on a taken prefix as data, storing nothing", () => {
  const { world } = reportingWorld();
  const brand = findBrandBySlug(world.db, BRAND)!;
  const before = listSkus(world.db, brand.id);
  expect(createBrandSku(world, brand, { name: 'Dark', prefix: 'NK-NEW' })).toEqual({ refused: 'prefix_outside_brand' });
  expect(createBrandSku(world, brand, { name: 'Again', prefix: 'AM-CHO' })).toEqual({ refused: 'prefix_taken' });
  expect(listSkus(world.db, brand.id)).toEqual(before);
  expect(createBrandSku(world, brand, { name: 'New', prefix: 'AM-NEW' })).toMatchObject({ brand_id: brand.id, prefix: 'AM-NEW' });
});

test('a SKU prefix already in use is 422', async () => {
  const t = reportingWorld();
  expect((await t.post(SKUS, { name: 'Again', prefix: 'AM-CHO' })).body).toEqual({ error: 'validation_failed', details: { prefix: ['is already used by another SKU'] } });
});

test('a SKU body must be JSON: another content type is 415, broken JSON is 400', async () => {
  const t = reportingWorld();
  const auth = { Authorization: `Bearer ${t.env.reporting_token}` };
  const form = await t.api.post(`${API}${SKUS}`).set(auth).type('form').send('name=Bar&prefix=AM-NEW');
  expect(form.status).toBe(415);
  expect(form.body).toEqual({ error: 'unsupported_media_type' });
  const broken = await t.api.post(`${API}${SKUS}`).set(auth).set('Content-Type', 'application/json').send('{"name":');
  expect(broken.status).toBe(400);
  expect(broken.body).toEqual({ error: 'invalid_request', details: { '(body)': ['must be valid JSON'] } });
});

test('SKUs are listed inside data; a created SKU is 201 with its id, name and prefix and joins the list', async () => {
  const t = reportingWorld();
  const before = (await t.get(SKUS).expect(200)).body.data;
  expect(before.map((sku: { prefix: string }) => sku.prefix)).toEqual(['AM-CHO', 'AM-HAZ', 'AM-WHT']);
  const created = await t.post(SKUS, { name: 'Alpenmilch Almond 100g', prefix: 'AM-ALM' }).expect(201);
  expect(created.body).toEqual({ id: expect.any(Number), name: 'Alpenmilch Almond 100g', prefix: 'AM-ALM', created_at: '2026-11-21T10:00:00.000Z' });
  expect((await t.get(SKUS)).body.data.at(-1)).toEqual(created.body);
  expect((await t.get(`/brands/nordkakao/skus`)).body.data.map((sku: { prefix: string }) => sku.prefix)).toEqual(['NK-DRK']);
});
