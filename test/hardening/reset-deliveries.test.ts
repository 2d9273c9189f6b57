/**
 * Round three, item 9: a reset while webhook deliveries are in flight logged one `FOREIGN KEY
 * constraint failed` error, with its stack, per delivery, as each attempt came back to record its
 * answer on a delivery the reset had deleted. Now a reset cancels the attempts in flight: each
 * ends without writing, logged at debug level, and the new world's deliveries go out as usual.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, expect, test, vi } from 'vitest';
import { createLogger } from '../../emulator/logger.js';
import { type Running, startServer } from '../../emulator/server.js';
import { lastScanId } from '../../emulator/store/scans.js';
import { DEFAULT_FIXTURE, FROZEN_AT } from '../world.js';

const ENDPOINTS = 20;

let emulator: Running | undefined;
let receiver: Server | undefined;
afterEach(async () => {
  receiver?.closeAllConnections();
  receiver?.close();
  await emulator?.close();
});

test('a reset with deliveries in flight cancels them: no FOREIGN KEY error, nothing recorded for the old world', { timeout: 60_000 }, async () => {
  const waiting: ServerResponse[] = [];
  receiver = createServer((req: IncomingMessage, res) => req.resume().once('end', () => waiting.push(res)));
  await new Promise<void>((ready) => receiver!.listen(0, '127.0.0.1', ready));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const lines: Array<{ level: number; msg: string; err?: unknown }> = [];
  const sink = new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } });
  emulator = await startServer({
    fixture: { ...DEFAULT_FIXTURE, history: { scans: 20 } }, data: ':memory:', host: '127.0.0.1', port: 0,
    clock: { mode: 'frozen', frozenAt: FROZEN_AT }, logger: createLogger('emulator', { level: 'debug' }, sink),
  });
  const post = (path: string, body: object) => fetch(`${emulator!.baseUrl}/_emulator${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  for (let i = 0; i < ENDPOINTS; i++) expect((await post('/webhooks', { url: hook, events: ['scan.processed'] })).status).toBe(201);
  emulator.world.events.emit('scan.recorded', { scanId: lastScanId(emulator.world.db, 'production')! });
  await vi.waitFor(() => expect(waiting).toHaveLength(ENDPOINTS), { timeout: 20_000, interval: 20 });

  expect((await post('/reset', {})).status).toBe(200);
  for (const res of waiting) res.writeHead(204).end();
  const dropped = () => lines.filter((line) => line.msg.startsWith('webhook attempt dropped')).length;
  const problems = () => lines.filter((line) => line.level >= 50 || line.msg === 'webhook attempt');
  await vi.waitFor(() => expect(dropped() + problems().length).toBe(ENDPOINTS), { timeout: 20_000, interval: 20 });
  expect(problems()).toEqual([]);
  expect(JSON.stringify(lines)).not.toContain('FOREIGN KEY');
  const deliveries = (await (await fetch(`${emulator.baseUrl}/_emulator/deliveries`)).json()) as { data: unknown[] };
  expect(deliveries.data).toEqual([]);
});
