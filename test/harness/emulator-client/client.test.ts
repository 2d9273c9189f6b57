/**
 * The client's transport: a read whose kept-alive connection the emulator closed as it went out is
 * sent once more (seen on a busy machine: a whole scenario stopped on "not reachable"); a write
 * never is, and a refused connection says why.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { EmulatorClient } from '../../../harness/emulator-client/client.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** An emulator whose first `resets` requests lose their connection; the rest answer an empty checklist. */
async function flaky(resets: number): Promise<{ client: EmulatorClient; requests: () => number }> {
  let requests = 0;
  server = createServer((request, response) => {
    requests += 1;
    if (requests <= resets) return request.socket.destroy();
    response.setHeader('content-type', 'application/json').end(JSON.stringify({ complete: false, items: [] }));
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return { client: new EmulatorClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), requests: () => requests };
}

test('a read that lost its connection is sent once more, on a new one', async () => {
  const { client, requests } = await flaky(1);
  expect(await client.checklist()).toMatchObject({ complete: false });
  expect(requests()).toBe(2);
});

test('nothing listening: not reachable, with the connection error', async () => {
  const { client } = await flaky(0);
  const { port } = server!.address() as AddressInfo;
  await new Promise<void>((done) => server!.close(() => done()));
  server = undefined;
  await expect(client.checklist()).rejects.toThrow(`the emulator at http://127.0.0.1:${port} is not reachable (ECONNREFUSED): start it`);
});

test('twice lost: not reachable, saying why; a write is never sent again', async () => {
  const twice = await flaky(2);
  await expect(twice.client.checklist()).rejects.toThrow(/is not reachable \(ECONNRESET\)/);
  expect(twice.requests()).toBe(2);
  await new Promise<void>((done) => server!.close(() => done()));
  const once = await flaky(1);
  await expect(once.client.clearFaults()).rejects.toThrow(/is not reachable \(ECONNRESET\)/);
  expect(once.requests()).toBe(1);
});
