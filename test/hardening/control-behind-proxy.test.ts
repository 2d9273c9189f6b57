/**
 * Round four, item 2: the control plane behind a reverse proxy on the same machine. The proxy calls
 * from loopback and, like nginx's `proxy_pass` or `ngrok --host-header=rewrite`, rewrites `Host` to
 * the emulator's own; it says where the request came from in a forwarding header. Such a request
 * is not a loopback caller: without the control token it is refused, reads and changes alike.
 * A real proxy (node's http, on 127.0.0.1) in front of a real emulator.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { createLogger } from '../../emulator/logger.js';
import { type Running, startServer } from '../../emulator/server.js';
import { DEFAULT_FIXTURE, FROZEN_AT } from '../world.js';

const TOKEN = 'proxy-test-control-token-0123456789';
const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

async function emulator(controlToken?: string): Promise<Running> {
  const running = await startServer({
    fixture: DEFAULT_FIXTURE, data: ':memory:', host: '127.0.0.1', port: 0, clock: { mode: 'frozen', frozenAt: FROZEN_AT },
    logger: createLogger('emulator', { level: 'silent' }), ...(controlToken ? { config: { controlToken } } : {}),
  });
  open.push(() => running.close());
  return running;
}

/** A reverse proxy on loopback to `target`: `Host` rewritten to the target's, the given forwarding header added. */
async function proxy(target: URL, forwarding: Record<string, string>): Promise<string> {
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, host: target.host, ...forwarding };
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  open.push(() => new Promise((closed) => {
    server.closeAllConnections();
    server.close(() => closed());
  }));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const FORWARDINGS: Array<Record<string, string>> = [
  { 'x-forwarded-for': '203.0.113.7' },
  { forwarded: 'for=203.0.113.7;proto=https' },
  { 'x-real-ip': '203.0.113.7' },
];

const call = (base: string, method: string, path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method, headers: { ...(method === 'POST' ? { 'content-type': 'application/json' } : {}), ...headers }, ...(method === 'POST' ? { body: '{}' } : {}) });

test('through a proxy that rewrites Host, a forwarded request is refused the control plane and the dashboard', async () => {
  const running = await emulator();
  const target = new URL(running.baseUrl);
  // The same calls straight from loopback pass: the proxy is what differs.
  expect((await call(running.baseUrl, 'GET', '/_emulator/secrets')).status).toBe(200);
  for (const forwarding of FORWARDINGS) {
    const base = await proxy(target, forwarding);
    const secrets = await call(base, 'GET', '/_emulator/secrets');
    expect(secrets.status, JSON.stringify(forwarding)).toBe(403);
    const refused = (await secrets.json()) as { error: string; message: string };
    expect(refused.error).toBe('forbidden');
    expect(refused.message).toContain(Object.keys(forwarding)[0]!);
    expect((await call(base, 'POST', '/_emulator/clock', {})).status, JSON.stringify(forwarding)).toBe(403);
    expect((await call(base, 'GET', '/_emulator/env')).status, JSON.stringify(forwarding)).toBe(403);
    expect((await call(base, 'GET', '/', { accept: 'text/html' })).status, JSON.stringify(forwarding)).toBe(403);
  }
  // Nothing moved: the clock is still frozen where it was.
  expect(((await (await call(running.baseUrl, 'GET', '/_emulator/clock')).json()) as { now: string }).now).toBe(new Date(FROZEN_AT).toISOString());
});

test('a forwarded request that brings the control token is let through', async () => {
  const running = await emulator(TOKEN);
  const base = await proxy(new URL(running.baseUrl), FORWARDINGS[0]!);
  expect((await call(base, 'GET', '/_emulator/secrets')).status).toBe(403);
  expect((await call(base, 'GET', '/_emulator/secrets', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  expect((await call(base, 'POST', '/_emulator/clock', { authorization: `Bearer ${TOKEN}` })).status).toBe(400);
});
