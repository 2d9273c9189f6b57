/**
 * Webhooks never reach link-local and metadata addresses (169.254.0.0/16, fe80::/10), by address or
 * by a name resolving to one, unless the emulator is started with --allow-link-local-webhooks.
 */
import dns from 'node:dns';
import { afterEach, expect, it, vi } from 'vitest';
import { createLogger } from '../../emulator/logger.js';
import { type Running, startServer } from '../../emulator/server.js';
import { lastScanId } from '../../emulator/store/scans.js';
import { instanceWritten, runCli, scratchFolder, startEmulator } from '../hardening/processes.js';
import { storedCount } from '../support/stored.js';
import { DEFAULT_FIXTURE, FROZEN_AT, testWorld } from '../world.js';

let emulator: Running | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await emulator?.close();
  emulator = undefined;
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
