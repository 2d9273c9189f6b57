/**
 * Issue 14, defect 6: bodies were read before the key was checked, so an unauthenticated request
 * announcing a 10 GB body was held until Node's 300 s timeout. Now, on raw sockets that keep their
 * side open as a slow or hostile client does: the key is checked from the headers first; a
 * declared length over 100 KB is refused at once (413); a body that stops arriving gets a 408
 * after a short wait; and each of these answers closes the connection, so nothing more is read.
 * @see README "Experience API errors" (bodies over 100 KB are 413)
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import { createLogger } from '../../emulator/logger.js';
import { type Running, startServer } from '../../emulator/server.js';
import { storedCount } from '../support/stored.js';
import { DEFAULT_FIXTURE, FROZEN_AT } from '../world.js';

/** Far below any default, so the test waits a moment only; the emulator's own is 10 s. */
const BODY_TIMEOUT_MS = 300;
/** An answer later than this means the server waited for a body. */
const HANG_MS = 5000;
const TEN_GB = 10 * 1024 ** 3;

let emulator: Running;
let port: number;
let keys: { sandbox: string; reporting: string };

beforeAll(async () => {
  emulator = await startServer({
    fixture: { ...DEFAULT_FIXTURE, history: { scans: 0 } }, data: ':memory:', host: '127.0.0.1', port: 0,
    clock: { mode: 'frozen', frozenAt: FROZEN_AT }, logger: createLogger('emulator', { level: 'silent' }), config: { bodyTimeoutMs: BODY_TIMEOUT_MS },
  });
  port = Number(new URL(emulator.baseUrl).port);
  const env = envValues(emulator.world);
  keys = { sandbox: env.sandbox_key!, reporting: env.reporting_token };
});

afterAll(() => emulator?.close());

interface Exchange {
  status: number;
  headers: string;
  body: string;
}

/** Writes `head` (and `body`) and keeps the socket open; resolves once the server has answered and closed the connection. */
function openExchange(head: string[], body = ''): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server neither answered nor closed within ${HANG_MS} ms: it waited for the body`));
    }, HANG_MS);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const [headers = '', answer = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), headers, body: answer });
    });
    socket.write(`${[...head, 'Host: 127.0.0.1', ''].join('\r\n')}\r\n${body}`);
  });
}

const json = (exchange: Exchange) => JSON.parse(exchange.body) as Record<string, unknown>;

describe('request bodies (issue 14, defect 6)', () => {
  it('refuses an unauthenticated request announcing a 10 GB body at once, from its headers, and closes the connection', async () => {
    const answer = await openExchange(['POST /api/experience/v1/sessions HTTP/1.1', 'Content-Type: application/json', `Content-Length: ${TEN_GB}`]);
    expect(answer.status).toBe(401);
    expect(json(answer)).toMatchObject({ error: 'invalid_key' });
    expect(answer.headers).toMatch(/^Connection: close$/im);
  });

  it('refuses a declared length over 100 KB with 413 at once, with a valid key too, on both APIs', async () => {
    const experience = await openExchange(['POST /api/experience/v1/sessions HTTP/1.1', `Authorization: Bearer ${keys.sandbox}`, 'Content-Type: application/json', `Content-Length: ${TEN_GB}`]);
    expect(experience.status).toBe(413);
    expect(json(experience)).toEqual({ error: 'payload_too_large', message: expect.any(String) });
    const reporting = await openExchange(['POST /api/v1/brands/alpenmilch/skus HTTP/1.1', `Authorization: Bearer ${keys.reporting}`, 'Content-Type: application/json', `Content-Length: ${100 * 1024 + 1}`]);
    expect(reporting.status).toBe(413);
    expect(json(reporting)).toEqual({ error: 'payload_too_large' });
    const unauthenticated = await openExchange(['POST /api/v1/brands/alpenmilch/skus HTTP/1.1', 'Content-Type: application/json', `Content-Length: ${TEN_GB}`]);
    expect(unauthenticated.status).toBe(401);
  });

  it('refuses a page form announcing more than 100 KB at once, with the 413 page', async () => {
    const answer = await openExchange(['POST /sign-in HTTP/1.1', 'Content-Type: application/x-www-form-urlencoded', `Content-Length: ${TEN_GB}`]);
    expect(answer.status).toBe(413);
    expect(answer.headers).toMatch(/^Content-Type: text\/html; charset=utf-8$/im);
    expect(answer.headers).toMatch(/^Connection: close$/im);
  });

  it('answers a body that stops arriving with 408 after a short wait, and stores nothing', async () => {
    const sessions = () => storedCount(emulator.world.db, 'sessions');
    const before = sessions();
    const stalled = await openExchange(['POST /api/experience/v1/sessions HTTP/1.1', `Authorization: Bearer ${keys.sandbox}`, 'Content-Type: application/json', 'Content-Length: 100'], '{"scenario":');
    expect(stalled.status).toBe(408);
    expect(json(stalled)).toEqual({ error: 'request_timeout', message: expect.stringContaining('did not arrive') });
    expect(stalled.headers).toMatch(/^Connection: close$/im);
    const chunked = await openExchange(['POST /api/v1/brands/alpenmilch/skus HTTP/1.1', `Authorization: Bearer ${keys.reporting}`, 'Content-Type: application/json', 'Transfer-Encoding: chunked'], '5\r\n{"nam\r\n');
    expect(chunked.status).toBe(408);
    expect(json(chunked)).toEqual({ error: 'request_timeout' });
    expect(sessions()).toBe(before);
  });

  it('still reads bodies that arrive: plain, chunked and gzip', async () => {
    const body = JSON.stringify({ scenario: 'won' });
    const plain = await openExchange(['POST /api/experience/v1/sessions HTTP/1.1', `Authorization: Bearer ${keys.sandbox}`, 'Content-Type: application/json', `Content-Length: ${body.length}`, 'Connection: close'], body);
    expect(plain.status).toBe(201);
    const chunked = await openExchange(['POST /api/experience/v1/sessions HTTP/1.1', `Authorization: Bearer ${keys.sandbox}`, 'Content-Type: application/json', 'Transfer-Encoding: chunked', 'Connection: close'], `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`);
    expect(chunked.status).toBe(201);
    const { gzipSync } = await import('node:zlib');
    const zipped = await fetch(`${emulator.baseUrl}/api/experience/v1/sessions`, {
      method: 'POST', headers: { authorization: `Bearer ${keys.sandbox}`, 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(body),
    });
    expect(zipped.status).toBe(201);
  });
});
