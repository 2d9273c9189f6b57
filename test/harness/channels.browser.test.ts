/**
 * Every way a page can ask its server is heard (issue 48 item 2): a page, its dedicated worker, a
 * shared worker and a service worker (the last two the instant they start) open WebSockets and send
 * frames, stream an EventSource, add JSONP script tags, send a beacon, ping an image, link a
 * stylesheet, fetch from another port and on a timer; each lands in the
 * run's requests, where behaviour.polling_stops and callback.no_third_party judge them (their
 * tests in harness/checks judge the same kinds on made-up facts).
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BrowserSession } from '../../harness/run/browser-session.js';
import { ConfigSchema } from '../../harness/config.js';
import { RunFacts } from '../../harness/run/facts.js';
import { useChromium } from '../support/chromium.js';

const browser = useChromium();
const SOCKET = "const ws = new WebSocket(location.origin.replace('http', 'ws') + '/ws/NAME'); ws.onopen = () => ws.send('status?');";
const other = createServer((_req, res) => res.writeHead(200, { 'access-control-allow-origin': '*' }).end('{}'));
const agency: Server = createServer((req, res) => {
  const path = req.url!.split('?')[0]!;
  if (path === '/') {
    const script = `${SOCKET.replace('NAME', 'page')}
      new EventSource('/events');
      const jsonp = document.createElement('script'); jsonp.src = '/status.js?callback=cb'; document.head.append(jsonp);
      navigator.sendBeacon('/beacon', 'seen');
      new Image().src = '/pixel.gif?t=1';
      const css = document.createElement('link'); css.rel = 'stylesheet'; css.href = '/state.css?t=1'; document.head.append(css);
      new Worker('/worker.js');
      new SharedWorker('/shared.js');
      navigator.serviceWorker.register('/sw.js');
      fetch('http://127.0.0.1:${(other.address() as AddressInfo).port}/status');`;
    return res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Ergebnis</title><script>${script}</script>`);
  }
  // A shared worker that asks at once, the instant it starts, then polls through the socket it opened then.
  if (path === '/shared.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(`fetch('/from-shared'); ${SOCKET.replace('NAME', 'shared').replace("ws.send('status?')", "setInterval(() => ws.send('status?'), 200)")}`);
  if (path === '/sw.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(`${SOCKET.replace('NAME', 'sw')} self.addEventListener('activate', () => { fetch('/from-sw-start'); setInterval(() => fetch('/from-sw'), 200); });`);
  if (path === '/worker.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(`fetch('/from-worker'); ${SOCKET.replace('NAME', 'worker')}`);
  if (path === '/events') return res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: pending\n\n');
  res.writeHead(200, { 'content-type': path.endsWith('.css') ? 'text/css' : path.endsWith('.js') ? 'text/javascript' : 'text/plain' }).end('');
});
// A WebSocket that answers every frame with one of its own.
const sockets = new Set<import('node:stream').Duplex>();
agency.on('upgrade', (req, socket) => {
  sockets.add(socket);
  const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  socket.on('data', () => socket.write(Buffer.from([0x81, 0x07, ...Buffer.from('pending')])));
  socket.on('error', () => undefined);
});
beforeAll(() => Promise.all([agency, other].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)))));
afterAll(() => {
  for (const socket of sockets) socket.destroy();
  for (const server of [agency, other]) server.closeAllConnections();
  return Promise.all([agency, other].map((server) => new Promise((resolve) => server.close(resolve))));
});

test('a page\'s, its workers\', a shared worker\'s and a service worker\'s requests of every kind, and WebSocket frames both ways, are recorded', { timeout: 60_000 }, async () => {
  const origin = `http://127.0.0.1:${(agency.address() as AddressInfo).port}`;
  const facts = new RunFacts(ConfigSchema.parse({ trace: 'off' }), { agency: origin, emulator: 'http://127.0.0.1:1', callback: `${origin}/callback` }, '/tmp');
  const session = await BrowserSession.open(browser(), facts, 'channels', 'main', { trace: 'off', recorded: [] });
  const kinds = () => new Set(facts.requests.map((request) => `${request.method} ${request.resourceType} ${request.url.replace(/:\d+/, '').split('?')[0]}`));
  const expected = [
    'GET websocket ws://127.0.0.1/ws/page', 'SEND websocket-frame ws://127.0.0.1/ws/page', 'RECEIVE websocket-frame ws://127.0.0.1/ws/page',
    'GET websocket ws://127.0.0.1/ws/worker', 'SEND websocket-frame ws://127.0.0.1/ws/worker', 'GET fetch http://127.0.0.1/from-worker',
    'GET fetch http://127.0.0.1/from-shared', 'GET websocket ws://127.0.0.1/ws/shared', 'SEND websocket-frame ws://127.0.0.1/ws/shared', 'RECEIVE websocket-frame ws://127.0.0.1/ws/shared',
    'GET eventsource http://127.0.0.1/events', 'GET script http://127.0.0.1/status.js', 'POST ping http://127.0.0.1/beacon', 'GET image http://127.0.0.1/pixel.gif',
    'GET stylesheet http://127.0.0.1/state.css', 'GET fetch http://127.0.0.1/status',
    'GET fetch http://127.0.0.1/from-sw-start', 'GET fetch http://127.0.0.1/from-sw', 'GET websocket ws://127.0.0.1/ws/sw', 'SEND websocket-frame ws://127.0.0.1/ws/sw',
  ];
  try {
    await session.goto(`${origin}/`);
    await expect.poll(() => expected.filter((kind) => !kinds().has(kind)), { timeout: 20_000 }).toEqual([]);
    expect(facts.requests.filter((request) => request.url.endsWith('/status')).every((request) => facts.isAgencyHost(request.url) && !facts.isAgency(request.url))).toBe(true);
  } finally {
    await session.close();
  }
});
