/**
 * The control plane behind a reverse proxy on the same machine. The proxy calls from loopback and,
 * like nginx's `proxy_pass` or `ngrok --host-header=rewrite`, rewrites `Host` to the emulator's
 * own; it says where the request came from in a header, or speaks HTTP/1.0 as nginx does. Such a
 * request is not a loopback caller: without the control token it is refused, reads and changes
 * alike. A proxy that shows nothing (a plain TCP forward) cannot be told apart: an emulator told
 * it is reachable from elsewhere (a public URL, a bind address off loopback) asks every caller for
 * the token. A real proxy (node's http or net, on 127.0.0.1) in front of a real emulator.
 * @see README "Security" (the control plane)
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { createLogger } from '../../emulator/logger.js';
import { type Running, startServer } from '../../emulator/server.js';
import { DEFAULT_FIXTURE, FROZEN_AT } from '../world.js';

const TOKEN = 'proxy-test-control-token-0123456789';
const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

async function emulator(controlToken?: string, where: { host?: string; publicUrl?: string } = {}): Promise<Running> {
  const running = await startServer({
    fixture: DEFAULT_FIXTURE, data: ':memory:', host: where.host ?? '127.0.0.1', port: 0, clock: { mode: 'frozen', frozenAt: FROZEN_AT },
    logger: createLogger('emulator', { level: 'silent' }), config: { ...(controlToken ? { controlToken } : {}), ...(where.publicUrl ? { publicUrl: where.publicUrl } : {}) },
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

/** A plain TCP forward on loopback to `target`: bytes both ways, nothing added. */
async function tcpForward(target: URL): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    client.pipe(upstream).pipe(client);
    for (const end of [client, upstream]) {
      sockets.add(end);
      end.on('error', () => [client, upstream].forEach((socket) => socket.destroy()));
    }
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  open.push(() => new Promise((closed) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => closed());
  }));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What nginx's default `proxy_pass` sends: HTTP/1.0, `Host` rewritten to the upstream's, no forwarding header. */
async function nginxDefault(target: URL, method: string, path: string): Promise<number> {
  const socket = net.connect(Number(target.port), target.hostname);
  const body = method === 'POST' ? '{}' : '';
  socket.end(`${method} ${path} HTTP/1.0\r\nHost: ${target.host}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  const answer = await new Promise<string>((done, fail) => {
    let text = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk)).on('end', () => done(text)).on('error', fail);
  });
  return Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1]);
}

const FORWARDINGS: Array<Record<string, string>> = [
  { 'x-forwarded-for': '203.0.113.7' },
  { forwarded: 'for=203.0.113.7;proto=https' },
  { 'x-real-ip': '203.0.113.7' },
  { via: '1.1 edge-proxy' },
  { 'x-forwarded-host': 'promo.example.test' },
  { 'x-forwarded-proto': 'https' },
  { 'x-original-url': '/_emulator/secrets' },
  { 'true-client-ip': '203.0.113.7' },
  { 'cf-connecting-ip': '203.0.113.7' },
  { 'x-client-ip': '203.0.113.7' },
  { X_Forwarded_For: '203.0.113.7' },
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
    expect(refused.message).toContain(Object.keys(forwarding)[0]!.toLowerCase());
    expect((await call(base, 'POST', '/_emulator/clock', {})).status, JSON.stringify(forwarding)).toBe(403);
    expect((await call(base, 'POST', '/_emulator/faults/clear', {})).status, JSON.stringify(forwarding)).toBe(403);
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

test("behind nginx's default proxy_pass (HTTP/1.0, Host rewritten, nothing added) the control plane is refused", async () => {
  const running = await emulator();
  const target = new URL(running.baseUrl);
  expect(await nginxDefault(target, 'GET', '/_emulator/secrets')).toBe(403);
  expect(await nginxDefault(target, 'POST', '/_emulator/faults/clear')).toBe(403);
  // The same calls in HTTP/1.1 pass: the protocol is what differs.
  expect((await call(running.baseUrl, 'POST', '/_emulator/faults/clear')).status).toBe(200);
});

test.each([
  ['a public URL', { publicUrl: 'https://promo-tunnel.example.test' }],
  ['a bind address off loopback', { host: '0.0.0.0' }],
])('told it is reachable from elsewhere (%s), it asks every caller for the token, through a plain TCP forward and on loopback alike', async (_name, where) => {
  const running = await emulator(undefined, where);
  // Without a token given, one was made for this run: the CLI finds it in the instance file.
  const token = running.world.config.controlToken!;
  expect(token).toMatch(/^[\w-]{32}$/);
  const forward = await tcpForward(new URL(running.world.config.localUrl!));
  for (const base of [forward, running.world.config.localUrl!]) {
    const refused = await call(base, 'GET', '/_emulator/secrets');
    expect(refused.status, base).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toContain('reachable from elsewhere');
    expect((await call(base, 'POST', '/_emulator/faults/clear')).status, base).toBe(403);
    expect((await call(base, 'GET', '/', { accept: 'text/html' })).status, base).toBe(403);
    expect((await call(base, 'GET', '/_emulator/secrets', { authorization: `Bearer ${token}` })).status, base).toBe(200);
    expect((await call(base, 'POST', '/_emulator/faults/clear', { authorization: `Bearer ${token}` })).status, base).toBe(200);
  }
  // A token given is the one asked for.
  const given = await emulator(TOKEN, where);
  expect((await call(given.world.config.localUrl!, 'GET', '/_emulator/secrets')).status).toBe(403);
  expect((await call(given.world.config.localUrl!, 'GET', '/_emulator/secrets', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
});
