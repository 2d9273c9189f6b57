import { expect, test, vi } from 'vitest';
import { createBatch } from '../../emulator/store/batches.js';
import { findSkuByPrefix } from '../../emulator/store/skus.js';
import { storedRows } from '../support/stored.js';
import { BRAND, OTHER_BRAND, type ReportingWorld, reportingWorld } from './reporting.js';
import { subscribeDomainEvents } from '../../emulator/webhooks/subscriptions.js';

const skuPath = (t: ReportingWorld, prefix = 'AM-CHO') => {
  const { id } = findSkuByPrefix(t.world.db, prefix)!;
  return { id, path: `/brands/${BRAND}/skus/${id}` };
};

/** A batch's units as stored, read apart from the download so the two can be compared. */
const unitsOfBatch = (t: ReportingWorld, batchId: number) => storedRows<{ batch_id: number; code: string }>(t.world.db, 'units').filter((unit) => unit.batch_id === batchId);

async function readyBatch(t: ReportingWorld, quantity: number, purpose = 'Autumn run') {
  const sku = skuPath(t);
  const created = await t.post(`${sku.path}/batches`, { quantity, purpose }).expect(202);
  const download = `${sku.path}/batches/${created.body.id}/download`;
  await vi.waitFor(async () => expect((await t.get(download)).status).toBe(200), { timeout: 10_000, interval: 25 });
  return { created: created.body, download };
}

test.each([
  [{ quantity: 0, purpose: 'x' }, { quantity: ['must be positive'] }],
  [{ quantity: -5, purpose: 'x' }, { quantity: ['must be positive'] }],
  [{ quantity: 1.5, purpose: 'x' }, { quantity: ['must be a whole number'] }],
  [{ quantity: '10', purpose: 'x' }, { quantity: ['must be a whole number'] }],
  [{ quantity: 1_000_001, purpose: 'x' }, { quantity: ['must be at most 1000000'] }],
  [{ quantity: 10 }, { purpose: ['is required'] }],
  [{ quantity: 10, purpose: 'x', codes: [] }, { codes: ['unknown field'] }],
])('creating a batch with %j is 422 with details', async (body, details) => {
  const t = reportingWorld();
  expect((await t.post(`${skuPath(t).path}/batches`, body)).body).toEqual({ error: 'validation_failed', details });
});

test("a batch for another brand's SKU, or an unknown SKU, is 404", async () => {
  const t = reportingWorld();
  const other = skuPath(t, 'NK-DRK');
  expect((await t.post(`/brands/${BRAND}/skus/${other.id}/batches`, { quantity: 1, purpose: 'x' })).status).toBe(404);
  expect((await t.post(`/brands/${BRAND}/skus/99999/batches`, { quantity: 1, purpose: 'x' })).status).toBe(404);
  expect((await t.post(`/brands/${OTHER_BRAND}/skus/${other.id}/batches`, { quantity: 1, purpose: 'x' })).status).toBe(202);
});

test('a download before the CSV is ready is 409 batch_not_ready with progress and Retry-After', async () => {
  const t = reportingWorld();
  const sku = skuPath(t);
  const batch = createBatch(t.world.db, { skuId: sku.id, quantity: 50, purpose: 'Still going', state: 'generating', now: t.world.clock.now() });
  const res = await t.get(`${sku.path}/batches/${batch.id}/download`);
  expect(res.status).toBe(409);
  expect(res.body).toEqual({ error: 'batch_not_ready', details: { state: ['generating: 0 of 50 codes'] } });
  expect(res.headers['retry-after']).toBe('1');
});

test("a batch is downloaded only under its own SKU: another SKU's id or an unknown batch is 404", async () => {
  const t = reportingWorld();
  const { created } = await readyBatch(t, 10);
  const other = skuPath(t, 'AM-HAZ');
  expect((await t.get(`${other.path}/batches/${created.id}/download`)).status).toBe(404);
  expect((await t.get(`${skuPath(t).path}/batches/99999/download`)).status).toBe(404);
});

test('batch creation is 202 with the batch and its state, generating at first', async () => {
  const t = reportingWorld();
  const sku = skuPath(t);
  const res = await t.post(`${sku.path}/batches`, { quantity: 25, purpose: 'Autumn run' }).expect(202);
  expect(res.body).toEqual({
    id: expect.any(Number),
    sku: { id: sku.id, name: 'Alpenmilch Alpine Milk 100g', prefix: 'AM-CHO' },
    quantity: 25,
    purpose: 'Autumn run',
    state: 'generating',
    created_at: '2026-11-21T10:00:00.000Z',
    download_url: `${t.world.config.baseUrl}/api/v1${sku.path}/batches/${res.body.id}/download`,
  });
});

test('a 20,000-code batch streams as CSV with Content-Disposition: unique codes with the SKU prefix, the day and the lot', async () => {
  const t = reportingWorld();
  const { created, download } = await readyBatch(t, 20_000);
  const res = await t.get(download).buffer(true).parse((response, done) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.on('end', () => done(null, text));
  });
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers['content-disposition']).toBe(`attachment; filename="AM-CHO-batch-${created.id}.csv"`);
  expect(res.headers['transfer-encoding']).toBe('chunked');
  const [header, ...rows] = (res.body as string).trimEnd().split('\n');
  expect(header).toBe('unit_id,code,url');
  expect(rows).toHaveLength(20_000);
  const codes = rows.map((row) => row.split(',')[1]!);
  expect(new Set(codes).size).toBe(20_000);
  for (const row of rows.slice(0, 50)) expect(row).toMatch(new RegExp(`^\\d+,(AM-CHO-261121-AA[A-Z2-9]{10}),${t.world.config.baseUrl}/q/\\1$`));
  expect(new Set(codes.map((code) => code.slice(14, 16))).size).toBe(10);
  expect(unitsOfBatch(t, created.id)).toHaveLength(20_000);
});

test('codes are not guessable from each other: past the lot, consecutive codes share no more characters than chance', async () => {
  const t = reportingWorld();
  const { created } = await readyBatch(t, 2000);
  const suffixes = unitsOfBatch(t, created.id).map((row) => row.code.slice(-10));
  expect(suffixes.every((suffix) => /^[A-Z2-9]{10}$/.test(suffix))).toBe(true);
  let same = 0;
  for (let i = 1; i < suffixes.length; i++) for (let c = 0; c < 10; c++) if (suffixes[i]![c] === suffixes[i - 1]![c]) same++;
  expect(same / (suffixes.length - 1)).toBeLessThan(1);
  expect([...suffixes].sort()).not.toEqual(suffixes);
});

test('codes derive from the seed: the same seed gives the same codes, another seed others', async () => {
  const codesOf = async (seed?: string) => {
    const t = reportingWorld({ seed });
    const { created } = await readyBatch(t, 100);
    return unitsOfBatch(t, created.id).map((row) => row.code);
  };
  const first = await codesOf();
  expect(await codesOf()).toEqual(first);
  expect(await codesOf('another-seed')).not.toEqual(first);
});

test('batch.generated then batch.export_ready are put in the outbox, each carrying the batch', async () => {
  const t = reportingWorld();
  // As a running emulator's webhook dispatcher does (server.ts): domain events are the one way into the outbox.
  subscribeDomainEvents(t.world);
  await t.api.post('/_emulator/webhooks').send({ url: 'https://crm.example/hooks', events: ['batch.generated', 'batch.export_ready'] }).expect(201);
  const { created } = await readyBatch(t, 10);
  const events = storedRows<{ type: string; body: string }>(t.world.db, 'webhook_events');
  expect(events.map((event) => event.type)).toEqual(['batch.generated', 'batch.export_ready']);
  const [generated, ready] = events.map((event) => JSON.parse(event.body));
  expect(generated.data).toMatchObject({ id: created.id, state: 'generated', quantity: 10 });
  expect(ready.data).toEqual({ ...created, state: 'export_ready' });
  expect(ready.brand).toEqual({ id: expect.any(Number), slug: BRAND, name: 'Alpenmilch', prefix: 'AM' });
});
