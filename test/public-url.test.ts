/**
 * `--public-url` (issue 13): the address agencies and browsers reach the emulator at, distinct from
 * the bind address. Pages' links, `authorize_url`, CSV links and webhook payloads carry it; the
 * emulator still reaches itself (its sinks) where it listens.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import request from 'supertest';
import { InvalidArgumentError } from 'commander';
import { parsePublicUrl } from '../emulator/cli/public-url.js';
import { createLogger } from '../emulator/logger.js';
import { type Running, startServer } from '../emulator/server.js';
import { DEFAULT_FIXTURE, FROZEN_AT } from './world.js';
import { csrfOf } from './journey/support.js';

const PUBLIC = 'https://promo-tunnel.example.test';
const running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((emulator) => emulator.close()));
});

async function start(publicUrl?: string) {
  const emulator = await startServer({
    fixture: { ...DEFAULT_FIXTURE, history: { scans: 0 } }, data: ':memory:', host: '127.0.0.1', port: 0,
    clock: { mode: 'frozen', frozenAt: FROZEN_AT }, logger: createLogger('emulator', { level: 'silent' }), config: publicUrl ? { publicUrl } : {},
  });
  running.push(emulator);
  return emulator;
}

/** A public URL makes the control plane ask for its token, made for the run when none was given. */
const token = (emulator: Running) => ({ Authorization: `Bearer ${emulator.world.config.controlToken}` });

describe('the public URL', () => {
  it('is what authorize_url, env, batch links and CSV links carry, while the emulator listens elsewhere', async () => {
    const emulator = await start(PUBLIC);
    expect(emulator.localUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emulator.baseUrl).toBe(PUBLIC);
    const api = request(emulator.localUrl);
    const env = (await api.get('/_emulator/env').set(token(emulator)).expect(200)).body;
    expect(env.base_url).toBe(PUBLIC);
    expect(env.dashboard_url).toBe(`${emulator.localUrl}/`);
    const campaign = (await api.get('/api/experience/v1/campaign').set('Authorization', `Bearer ${env.sandbox_key}`).expect(200)).body;
    expect(campaign.authorize_url).toBe(`${PUBLIC}/authorize`);
    expect(campaign.campaign.rewards_path).toBe('/rewards');

    const auth = { Authorization: `Bearer ${env.reporting_token}` };
    const batch = (await api.post('/api/v1/brands/alpenmilch/skus/1/batches').set(auth).send({ quantity: 3, purpose: 'tunnel' }).expect(202)).body;
    expect(batch.download_url).toBe(`${PUBLIC}/api/v1/brands/alpenmilch/skus/1/batches/${batch.id}/download`);
    const csv = await vi.waitFor(async () => (await api.get(batch.download_url.replace(PUBLIC, '')).set(auth).expect(200)).text, { timeout: 5000, interval: 20 });
    const rows = csv.trim().split('\n').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.split(',')[2]!.startsWith(`${PUBLIC}/q/`))).toBe(true);
  });

  it('is carried by webhook payloads, while deliveries to the built-in sink still arrive where the emulator listens', async () => {
    const emulator = await start(PUBLIC);
    const api = request(emulator.localUrl);
    await api.post('/_emulator/sinks').set(token(emulator)).send({ name: 'crm', events: ['batch.generated'] }).expect(201);
    const env = (await api.get('/_emulator/env').set(token(emulator)).expect(200)).body;
    await api.post('/api/v1/brands/alpenmilch/skus/1/batches').set('Authorization', `Bearer ${env.reporting_token}`).send({ quantity: 2, purpose: 'hooks' }).expect(202);
    const [event] = await vi.waitFor(async () => {
      const events = (await api.get('/_emulator/sink/crm').set(token(emulator)).set('Accept', 'application/json').expect(200)).body.data;
      if (events.length === 0) throw new Error('no delivery yet');
      return events;
    }, { timeout: 5000, interval: 20 });
    expect(event.verified).toBe(true);
    expect(event.payload.data.download_url.startsWith(`${PUBLIC}/api/v1/`)).toBe(true);
  });

  it('makes the collector\'s sign-in cookie Secure when it is https, though the tunnel brings plain http', async () => {
    const emulator = await start(PUBLIC);
    const browser = request.agent(emulator.localUrl);
    const form = await browser.get('/sign-in');
    const res = await browser.post('/sign-in').type('form').send({ csrf: csrfOf(form.text), collector_id: 1, next: '/rewards' }).expect(303);
    expect((res.headers['set-cookie'] as unknown as string[]).find((line) => line.startsWith('promo_session='))).toMatch(/; Secure/);
    const plain = await start();
    const other = request.agent(plain.localUrl);
    const otherForm = await other.get('/sign-in');
    const insecure = await other.post('/sign-in').type('form').send({ csrf: csrfOf(otherForm.text), collector_id: 1, next: '/rewards' }).expect(303);
    expect((insecure.headers['set-cookie'] as unknown as string[]).find((line) => line.startsWith('promo_session='))).not.toMatch(/Secure/);
  });

  it('without one, the bind address is what everything carries', async () => {
    const emulator = await start();
    expect(emulator.baseUrl).toBe(emulator.localUrl);
    expect((await request(emulator.localUrl).get('/_emulator/env')).body.base_url).toBe(emulator.localUrl);
  });
});

describe('--public-url values', () => {
  it.each([
    ['https://promo.example.test', 'https://promo.example.test'],
    ['https://promo.example.test/', 'https://promo.example.test'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['  https://Promo.Example.test:8443  ', 'https://promo.example.test:8443'],
  ])('accepts %s as %s', (text, origin) => {
    expect(parsePublicUrl(text)).toBe(origin);
  });

  it.each(['promo.example.test', 'ftp://promo.example.test', 'https://promo.example.test/emulator', 'https://promo.example.test/?x=1', 'https://promo.example.test/#top', 'https://user:pw@promo.example.test'])(
    'refuses %s with a reason',
    (text) => {
      expect(() => parsePublicUrl(text)).toThrow(InvalidArgumentError);
    },
  );
});
