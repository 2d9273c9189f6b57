/**
 * Issue 14, defect 4: with 500 webhook endpoints one scan stalled `/health` for about 10 s, as every
 * finished attempt looked for the next due delivery of every endpoint (work growing with the square
 * of the endpoint count). Now dispatch work grows linearly, which is measured here in SQL work
 * (statements run and rows read), never in time; and the number of endpoints is capped with a
 * clear 422.
 * @see README "Webhook receiver"
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Statement } from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../emulator/logger.js';
import { type Running, startServer } from '../../emulator/server.js';
import type { Db } from '../../emulator/store/db.js';
import { lastScanId } from '../../emulator/store/scans.js';
import { snapshotTables } from '../../emulator/store/snapshot.js';
import { countDeliveries } from '../../emulator/store/webhooks.js';
import { DEFAULT_FIXTURE, FROZEN_AT, testWorld } from '../world.js';

/** The cap, stated here: a clear 422 past it. */
const MAX_ENDPOINTS = 100;

let emulator: Running | undefined;
let receiver: Server | undefined;
afterEach(async () => {
  vi.useRealTimers();
  receiver?.close();
  await emulator?.close();
});

/** Counts every statement the emulator runs from now on, and the rows it reads. */
function countSqlWork(db: Db): { work(): number } {
  let work = 0;
  const prepare = db.prepare;
  const counted = (statement: Statement): Statement => {
    const proxy: Statement = new Proxy(statement, {
      get(target, name) {
        const value = Reflect.get(target, name, target) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const result = (value as (...a: unknown[]) => unknown).apply(target, args);
          // pluck(), raw() and the like return the statement itself: keep counting through it.
          if (result === target) return proxy;
          if (['run', 'get', 'all', 'iterate'].includes(name as string)) work += 1 + (Array.isArray(result) ? result.length : 0);
          return result;
        };
      },
    });
    return proxy;
  };
  db.prepare = ((sql: string) => counted(prepare.call(db, sql))) as Db['prepare'];
  return { work: () => work };
}

/**
 * The SQL work of sending one `scan.processed` to `endpoints` endpoints, each answering 204. The
 * dispatcher's poll (retries on a real clock) is held still, so that only the fan-out is counted,
 * however long the machine takes.
 */
async function dispatchWork(endpoints: number): Promise<number> {
  vi.useFakeTimers({ toFake: ['setInterval'] });
  receiver = createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((ready) => receiver!.listen(0, '127.0.0.1', ready));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  emulator = await startServer({
    fixture: { ...DEFAULT_FIXTURE, history: { scans: 50 } }, data: ':memory:', host: '127.0.0.1', port: 0,
    clock: { mode: 'frozen', frozenAt: FROZEN_AT }, logger: createLogger('emulator', { level: 'silent' }),
  });
  for (let i = 0; i < endpoints; i++) {
    const res = await fetch(`${emulator.baseUrl}/_emulator/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: hook, events: ['scan.processed'] }) });
    expect(res.status).toBe(201);
  }
  const { db, events } = emulator.world;
  const scanId = lastScanId(db, 'production');
  const sql = countSqlWork(db);
  // The test's own polling is counted too: its work is taken back out, exactly, as it runs synchronously.
  let polling = 0;
  const delivered = () => {
    const before = sql.work();
    const count = countDeliveries(db, 'delivered');
    polling += sql.work() - before;
    return count;
  };
  events.emit('scan.recorded', { scanId });
  await vi.waitFor(() => expect(delivered()).toBe(endpoints), { timeout: 20_000, interval: 10 });
  const work = sql.work() - polling;
  receiver.close();
  await emulator.close();
  emulator = receiver = undefined;
  return work;
}

describe('webhook dispatch (issue 14, defect 4)', () => {
  it('does work linear in the endpoint count: twice the endpoints, at most about twice the SQL work', async () => {
    const small = await dispatchWork(30);
    const large = await dispatchWork(60);
    expect(large / small, `SQL work ${small} for 30 endpoints, ${large} for 60`).toBeLessThan(2.5);
    expect(large / 60, 'statements and rows per delivery').toBeLessThan(15);
  }, 60_000);

  it(`refuses endpoint ${MAX_ENDPOINTS + 1}, a webhook or a sink, with a clear 422 and stores nothing`, async () => {
    const t = testWorld();
    for (let i = 0; i < MAX_ENDPOINTS - 1; i++) expect((await t.api.post('/_emulator/webhooks').send({ url: `https://hooks.example/${i}` })).status).toBe(201);
    expect((await t.api.post('/_emulator/sinks').send({ name: 'crm' })).status).toBe(201);
    const stored = () => snapshotTables(t.world.db, ['webhook_endpoints', 'sinks']);
    const before = stored();

    const webhook = await t.api.post('/_emulator/webhooks').send({ url: 'https://hooks.example/one-more' });
    expect(webhook.status).toBe(422);
    expect(webhook.body).toEqual({ error: 'limit_reached', message: expect.stringContaining(`${MAX_ENDPOINTS} webhook endpoints`) });
    const sink = await t.api.post('/_emulator/sinks').send({ name: 'one-more' });
    expect(sink.status).toBe(422);
    expect(stored()).toEqual(before);

    expect((await t.api.post('/_emulator/webhooks/1/remove').send({})).status).toBe(200);
    expect((await t.api.post('/_emulator/webhooks').send({ url: 'https://hooks.example/instead' })).status).toBe(201);
  });
});
