/**
 * Issue 14, defect 7: small inconsistencies, each now a clear, documented error.
 * @see README "Experience API errors"
 */
import dns from 'node:dns';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../emulator/logger.js';
import { type Running, startServer } from '../../emulator/server.js';
import { countScans, lastScanId } from '../../emulator/store/scans.js';
import { storedCount, storedRows } from '../support/stored.js';
import { approvedWorld, packCode, signedIn } from '../journey/support.js';
import { DEFAULT_FIXTURE, FROZEN_AT, VERIFIER, issueCodeFor, testWorld } from '../world.js';
import { instanceWritten, runCli, scratchFolder, startEmulator } from './processes.js';

const STATE = 'S'.repeat(43);
const CHALLENGE = 'C'.repeat(43);

let emulator: Running | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await emulator?.close();
  emulator = undefined;
});

describe('small inconsistencies (issue 14, defect 7)', () => {
  it('refuses every charset but UTF-8 the same way, 415, whatever the bytes (RFC 8259 §8.1: JSON travels as UTF-8)', async () => {
    const t = testWorld();
    const text = JSON.stringify({ scenario: 'won' });
    const bodies: Array<[string, Buffer]> = [
      ['utf-16', Buffer.from(text, 'utf16le')], ['utf-16', Buffer.from(text)], ['UTF-16LE', Buffer.from(text, 'utf16le')],
      ['latin1', Buffer.from(text, 'latin1')], ['iso-8859-1', Buffer.from(text)], ['us-ascii', Buffer.from(text)], ['utf-32', Buffer.from(text)], ['utf8', Buffer.from(text)], ['"klingon"', Buffer.from(text)],
    ];
    for (const [charset, bytes] of bodies) {
      for (const path of ['/api/experience/v1/sessions', '/api/v1/brands/alpenmilch/skus']) {
        const key = path.startsWith('/api/v1') ? t.env.reporting_token : t.env.sandbox_key!;
        const res = await t.api.post(path).set('Authorization', `Bearer ${key}`).set('Content-Type', `application/json; charset=${charset}`).send(bytes.toString('latin1'));
        expect(res.status, `${charset} on ${path}`).toBe(415);
        expect(res.body.error, `${charset} on ${path}`).toBe('unsupported_media_type');
      }
    }
    for (const charset of ['utf-8', 'UTF-8', '"utf-8"']) {
      const res = await t.experience('post', '/sessions').set('Content-Type', `application/json; charset=${charset}`).send(text);
      expect(res.status, charset).toBe(201);
    }
    expect(storedRows<{ sandbox: number }>(t.world.db, 'sessions').filter((session) => session.sandbox === 1)).toHaveLength(3);
  });

  it('answers OPTIONS like any method without an endpoint: a JSON 404 in the area\'s error shape, never 200 text/plain', async () => {
    const t = testWorld();
    const paths = [
      '/api/experience/v1/campaign', '/api/experience/v1/sessions', '/api/experience/v1/openapi.json', '/api/v1/brands', '/api/v1/brands/alpenmilch/scans',
      '/_emulator/health', '/_emulator/clock', '/_emulator/sink/crm', '/_emulator/console/keys', '/', '/sign-in', `/q/${packCode(t)}`, '/console/pause', '/nowhere',
    ];
    for (const path of paths) {
      const res = await request(t.app).options(path).set('Origin', 'https://agency.example').set('Access-Control-Request-Method', 'POST');
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toBe('application/json; charset=utf-8');
      expect(res.headers['access-control-allow-origin'], path).toBeUndefined();
      expect(res.headers.allow, path).toBeUndefined();
      expect(res.body, path).toEqual(path.startsWith('/api/v1') ? { error: 'not_found' } : { error: 'not_found', message: `No endpoint OPTIONS ${path.split('?')[0]}. See the README for the API's routes.` });
    }
  });

  it('records no scan and issues no request token for HEAD /q/<code>, which GET still does', async () => {
    const t = await approvedWorld();
    const browser = await signedIn(t);
    const count = () => ({ scans: countScans(t.world.db), tokens: storedCount(t.world.db, 'request_tokens') });
    const before = count();
    const head = await browser.head(`/q/${packCode(t)}`);
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(count()).toEqual(before);
    expect((await browser.get(`/q/${packCode(t)}`)).status).toBe(303);
    expect(count()).toEqual({ scans: before.scans + 1, tokens: before.tokens + 1 });
  });

  it('says a request_token over 512 characters is too long, not missing', async () => {
    const t = testWorld();
    const browser = await signedIn(t);
    const query = (token: string) => new URLSearchParams({ request_token: token, state: STATE, code_challenge: CHALLENGE, code_challenge_method: 'S256' });
    const long = await browser.get(`/authorize?${query(`rt_${'x'.repeat(510)}`)}`);
    expect(long.status).toBe(400);
    expect(long.text).toContain('request_token is too long (at most 512 characters)');
    expect(long.text).not.toContain('missing');
    const missing = await browser.get(`/authorize?${query('')}`);
    expect(missing.text).toContain('request_token is missing');
  });

  it('after a wrong verifier, a retry hears that the code was used, and no word of a session it never produced', async () => {
    const t = testWorld();
    const exchange = (code: string, verifier: string) => t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: verifier });
    const code = issueCodeFor(t);
    expect((await exchange(code, `${VERIFIER}-wrong`)).status).toBe(400);
    const retry = await exchange(code, VERIFIER);
    expect(retry.status).toBe(400);
    expect(retry.body).toEqual({ error: 'invalid_grant', message: expect.stringContaining('already used') });
    expect(retry.body.message).not.toMatch(/session/i);

    const good = issueCodeFor(t, { packCode: packCode(t, 'lost') });
    expect((await exchange(good, VERIFIER)).status).toBe(201);
    const replay = await exchange(good, VERIFIER);
    expect(replay.body.message).toContain('the session it produced is revoked');
  });

  it('refuses webhook URLs to link-local and metadata addresses (169.254.0.0/16, fe80::/10) unless started with --allow-link-local-webhooks', async () => {
    const t = testWorld();
    const endpoints = () => storedCount(t.world.db, 'webhook_endpoints');
    const before = endpoints();
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://169.254.0.1:8080/hook', 'http://2852039166/', 'http://0xa9.0xfe.0xa9.0xfe/', 'http://[fe80::1]/hook', 'http://[febf::1]/hook', 'http://[::ffff:169.254.169.254]/']) {
      const res = await t.api.post('/_emulator/webhooks').send({ url });
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual({ error: 'invalid_request', message: expect.any(String), details: { url: [expect.stringContaining('--allow-link-local-webhooks')] } });
    }
    expect(endpoints()).toBe(before);
    for (const url of ['http://169.253.255.255/hook', 'http://10.0.0.5/hook', 'http://[fec0::1]/hook', 'https://hooks.example/in']) expect((await t.api.post('/_emulator/webhooks').send({ url })).status, url).toBe(201);

    const allowed = testWorld({ config: { allowLinkLocalWebhooks: true } });
    expect((await allowed.api.post('/_emulator/webhooks').send({ url: 'http://169.254.169.254/hook' })).status).toBe(201);
  });

  it('refuses to deliver to a name that resolves to a link-local address', async () => {
    vi.spyOn(dns.promises, 'lookup').mockImplementation((async () => [{ address: '169.254.169.254', family: 4 }]) as unknown as typeof dns.promises.lookup);
    emulator = await startServer({
      fixture: { ...DEFAULT_FIXTURE, history: { scans: 5 } }, data: ':memory:', host: '127.0.0.1', port: 0,
      clock: { mode: 'frozen', frozenAt: FROZEN_AT }, logger: createLogger('emulator', { level: 'silent' }),
    });
    const base = emulator.baseUrl;
    const added = await fetch(`${base}/_emulator/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://metadata.example.test/hook', events: ['scan.processed'] }) });
    expect(added.status).toBe(201);
    const scanId = lastScanId(emulator.world.db, 'production');
    emulator.world.events.emit('scan.recorded', { scanId });
    const attempts = await vi.waitFor(async () => {
      const { data } = (await (await fetch(`${base}/_emulator/deliveries`)).json()) as { data: Array<{ attempts: Array<{ status: number | null; error: string | null }> }> };
      expect(data[0]?.attempts.length).toBeGreaterThan(0);
      return data[0]!.attempts;
    }, { timeout: 5000, interval: 25 });
    expect(attempts[0]).toMatchObject({ status: null, error: expect.stringContaining('link-local') });
    expect(dns.promises.lookup).toHaveBeenCalledWith('metadata.example.test', { all: true });
  });

  it('takes --allow-link-local-webhooks on `emulator start`', async () => {
    const scratch = scratchFolder((fixture) => ({ ...fixture, history: { scans: 0 } }));
    try {
      const strict = await startEmulator({ data: scratch.data, fixture: scratch.fixture });
      await instanceWritten(scratch.data);
      const refused = await runCli('webhooks', 'add', 'http://169.254.169.254/hook', '--data', scratch.data);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('--allow-link-local-webhooks');
      await strict.stop();
      const allowing = await startEmulator({ data: scratch.data, fixture: scratch.fixture, args: ['--allow-link-local-webhooks'] });
      await instanceWritten(scratch.data);
      const added = await runCli('webhooks', 'add', 'http://169.254.169.254/hook', '--data', scratch.data);
      expect(added).toMatchObject({ code: 0, stdout: expect.stringContaining('at http://169.254.169.254/hook') });
      await allowing.stop();
    } finally {
      scratch.remove();
    }
  });
});

