import { beforeAll, describe, expect, it, vi } from 'vitest';
import { REPORTING_API } from '../../emulator/openapi/reporting.js';
import { createBatch } from '../../emulator/store/batches.js';
import { findSkuByPrefix } from '../../emulator/store/skus.js';
import { BRAND, reportingWorld } from '../reporting/reporting.js';
import { checkAgainstDocument } from './check.js';
import { type OpenApiDoc, OVERSIZED, type Recording, recorder } from './support.js';

const ROOT = REPORTING_API.root;

/** Calls every endpoint into every documented status. */
async function recordReporting(): Promise<Recording[]> {
  const recordings: Recording[] = [];
  const t = reportingWorld();
  const call = recorder(t, ROOT, recordings);
  const auth = { Authorization: `Bearer ${t.env.reporting_token}` };
  const brand = { slug: BRAND };
  const unknownBrand = { slug: 'no-such-brand' };
  const { id: skuId } = findSkuByPrefix(t.world.db, 'AM-CHO')!;
  const sku = { ...brand, id: skuId };

  await call('get', '/brands', { headers: auth });

  for (const route of ['/brands/:slug/scans', '/brands/:slug/collectors', '/brands/:slug/redemptions']) {
    const listed = await call('get', route, { headers: auth, params: brand, query: { limit: 1000 } });
    expect(listed.body.data.length, route).toBeGreaterThan(0);
    await call('get', route, { headers: auth, params: brand, query: { limit: 0 } });
    await call('get', route, { headers: auth, params: unknownBrand });
  }
  await call('get', '/brands/:slug/redemptions', { headers: auth, params: brand, query: { status: 'redeemed' } });

  const [scan] = (await t.get(`/brands/${BRAND}/scans?limit=1`)).body.data as Array<{ scan: { id: number }; collector: { id: number } | null }>;
  await call('get', '/brands/:slug/scans/:id', { headers: auth, params: { ...brand, id: scan!.scan.id } });
  await call('get', '/brands/:slug/scans/:id', { headers: auth, params: { ...brand, id: 'first' } });
  const [collector] = (await t.get(`/brands/${BRAND}/collectors?limit=1`)).body.data as Array<{ id: number }>;
  const detail = await call('get', '/brands/:slug/collectors/:id', { headers: auth, params: { ...brand, id: collector!.id } });
  expect(detail.body.recent_scans.length).toBeGreaterThan(0);
  await call('get', '/brands/:slug/collectors/:id', { headers: auth, params: { ...brand, id: 999_999 } });

  await call('get', '/brands/:slug/skus', { headers: auth, params: brand });
  await call('get', '/brands/:slug/skus', { headers: auth, params: unknownBrand });
  await call('post', '/brands/:slug/skus', { headers: auth, params: brand, body: { name: 'Oat milk chocolate', prefix: 'AM-OAT' } });
  await call('post', '/brands/:slug/skus', { headers: auth, params: unknownBrand, body: { name: 'Oat milk chocolate', prefix: 'AM-OAT' } });
  await call('post', '/brands/:slug/skus', { headers: auth, params: brand, body: { name: 'Taken', prefix: 'AM-OAT' } });

  const created = await call('post', '/brands/:slug/skus/:id/batches', { headers: auth, params: sku, body: { quantity: 5, purpose: 'Autumn run' } });
  await call('post', '/brands/:slug/skus/:id/batches', { headers: auth, params: { ...brand, id: 99_999 }, body: { quantity: 5, purpose: 'Autumn run' } });
  await call('post', '/brands/:slug/skus/:id/batches', { headers: auth, params: sku, body: { quantity: 0, purpose: 'Autumn run' } });
  for (const [route, params] of [['/brands/:slug/skus', brand], ['/brands/:slug/skus/:id/batches', sku]] as const) {
    await call('post', route, { headers: auth, params, raw: { type: 'application/json', text: '{"quantity":' } });
    await call('post', route, { headers: auth, params, raw: { type: 'text/plain', text: 'quantity=5' } });
    await call('post', route, { headers: auth, params, body: OVERSIZED });
  }

  const download = '/brands/:slug/skus/:sku_id/batches/:id/download';
  const ready = { ...brand, sku_id: skuId, id: created.body.id as number };
  await vi.waitFor(async () => expect((await t.get(`/brands/${BRAND}/skus/${skuId}/batches/${ready.id}/download`)).status).toBe(200), { timeout: 10_000, interval: 25 });
  await call('get', download, { headers: auth, params: ready });
  const generating = createBatch(t.world.db, { skuId, quantity: 50, purpose: 'Still going', state: 'generating', now: t.world.clock.now() });
  await call('get', download, { headers: auth, params: { ...ready, id: generating.id } });
  await call('get', download, { headers: auth, params: { ...ready, id: 99_999 } });

  for (const route of Object.keys(REPORTING_API.routes)) {
    for (const method of Object.keys(REPORTING_API.routes[route]!) as Array<'get' | 'post'>) {
      await call(method, route, { params: { slug: BRAND, id: 1, sku_id: skuId }, headers: { Authorization: 'Bearer not-a-token' } });
    }
  }
  return recordings;
}

describe('the reporting API answers as its OpenAPI document says', () => {
  let recordings: Recording[];
  let doc: OpenApiDoc;
  beforeAll(async () => {
    recordings = await recordReporting();
    doc = (await reportingWorld().api.get(`${ROOT}/openapi.json`)).body as OpenApiDoc;
  });

  checkAgainstDocument(REPORTING_API, () => ({ recordings, doc }));

  it('records redemptions both claimed and redeemed, and scans with and without a signed-in collector', () => {
    const redemptions = recordings.filter((r) => r.route === '/brands/:slug/redemptions' && r.status === 200).flatMap((r) => (r.body as { data: Array<{ status: string }> }).data);
    expect(new Set(redemptions.map((item) => item.status))).toEqual(new Set(['claimed', 'redeemed']));
    const scans = recordings.filter((r) => r.route === '/brands/:slug/scans' && r.status === 200).flatMap((r) => (r.body as { data: Array<{ collector: unknown }> }).data);
    expect(scans.some((scan) => scan.collector === null)).toBe(true);
    expect(scans.some((scan) => scan.collector !== null)).toBe(true);
  });
});
