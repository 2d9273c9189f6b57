/** The `emulator` command's life cycle from outside: start, env, logs, clock, seed and stop, and a start that cannot start. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { freePort, runCli as emulator } from '../hardening/processes.js';
import { cleanUp, expectOneLineFailure, instance, occupy, tempFolder } from './support.js';

afterEach(cleanUp);

test('start prints the connection values, env reads them, the API answers, and stop stops it', { timeout: 90_000 }, async () => {
  const it = await instance();
  const started = await it.start();
  expect(started.code).toBe(0);
  expect(started.stdout).toContain(`[emulator] running at ${it.baseUrl}`);
  // A fresh data folder is seeded first, and start says so before it waits (issue 15).
  expect(started.stdout.split('\n')[0]).toMatch(/^\[emulator\] seeding the world from .+default\.json into .+…$/);

  const env = await it.env();
  expect(Object.keys(env)).toEqual(expect.arrayContaining(['base_url', 'sandbox_key', 'production_key', 'reporting_token', 'brand_slug', 'promotion_id', 'packs', 'collectors']));
  expect(env.base_url).toBe(it.baseUrl);
  for (const value of [env.sandbox_key!, env.production_key!, env.reporting_token, env.brand_slug, ...env.packs.map((pack) => pack.code)]) {
    expect(started.stdout).toContain(value);
  }
  expect(new Set(env.packs.map((pack) => pack.outcome))).toEqual(new Set(['won', 'lost', 'pending', 'failed']));
  // One name per kind of pack (issue 15): known-outcome packs reach the agency, tester packs never do.
  expect(started.stdout).toContain('Known-outcome packs');
  expect(started.stdout).not.toContain('Test packs');
  expect(started.stdout).toMatch(/never reach your agency[^\n]*\n\s+Tester packs\s+\S/);
  expect(env.known_outcome_packs).toEqual(env.packs);
  expect(env.tester_packs).toEqual(env.test_packs);
  expect(env.tester_packs.length).toBeGreaterThan(0);
  for (const code of env.tester_packs) expect(started.stdout).toContain(code);
  expect((await it.run('env')).stdout).toContain(`export PROMO_SANDBOX_KEY='${env.sandbox_key}'\n`);

  expect((await it.campaign(env.sandbox_key!)).status).toBe(200);
  expect((await it.campaign('pk_sandbox_unknown')).status).toBe(401);
  // The control plane reads bodies as the APIs do: UTF-8 JSON only.
  const utf16 = await fetch(`${it.baseUrl}/_emulator/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-16le' },
    body: Buffer.from(JSON.stringify({ unfreeze: true }), 'utf16le'),
  });
  expect(utf16.status).toBe(415);
  expect(((await utf16.json()) as { error: string }).error).toBe('unsupported_media_type');
  // The built CLI requires iconv-lite from node_modules rather than bundling it (scripts/bundle-cli.mjs);
  // the pages' form parser decodes every form body with it, Latin-1 as well.
  const latin1 = await fetch(`${it.baseUrl}/sign-in`, {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1' },
    body: Buffer.from('email=j%FCrgen%40example.test', 'latin1'),
  });
  // Read, then refused for want of the sign-in form's CSRF field (a body it could not read would be 400).
  expect(latin1.status).toBe(403);

  const again = await it.start();
  expect(again.code).toBe(0);
  const { pid } = JSON.parse(readFileSync(join(it.data, 'instance.json'), 'utf8')) as { pid: number };
  expect(again.stdout).toContain(`[emulator] already running at ${it.baseUrl} (pid ${pid})`);
  expect(again.stdout).not.toContain('seeding the world');

  expect((await it.run('clock', 'advance', '31m')).stdout).toContain('clock runs +31m from system time');
  const clock = (await (await fetch(`${it.baseUrl}/_emulator/clock`)).json()) as { offsetMs: number };
  expect(clock.offsetMs).toBe(31 * 60_000);

  const logs = (await it.run('logs')).stdout;
  expect(logs).toContain('emulator started');
  // Every request, one line each, with its status and error code (issue 15).
  expect(logs).toMatch(/INFO.*: GET \/api\/experience\/v1\/campaign 200\n/);
  expect(logs).toMatch(/INFO.*: GET \/api\/experience\/v1\/campaign 401 invalid_key\n/);
  expect(logs).not.toContain('pk_sandbox_unknown');
  const follower = spawn(process.execPath, [fileURLToPath(new URL('../../dist/emulator/cli.js', import.meta.url)), 'logs', '-f', '--data', it.data]);
  let followed = '';
  follower.stdout.on('data', (chunk: Buffer) => (followed += chunk.toString()));
  try {
    await fetch(`${it.baseUrl}/api/v1/brands`);
    await expect.poll(() => followed, { timeout: 10_000 }).toMatch(/GET \/api\/v1\/brands 401 unauthorized\n/);
  } finally {
    follower.kill();
  }
  const log = readFileSync(join(it.data, 'emulator.log'), 'utf8');
  for (const secret of [env.sandbox_key!, env.production_key!, env.reporting_token]) expect(log).not.toContain(secret);

  const stopped = await it.run('stop');
  expect(stopped).toMatchObject({ code: 0, stdout: expect.stringContaining(`stopped the emulator at ${it.baseUrl} (pid ${pid})`) });
  expect(existsSync(join(it.data, 'instance.json'))).toBe(false);
  await expect(fetch(`${it.baseUrl}/_emulator/health`)).rejects.toThrow();
  expect(await it.run('status')).toMatchObject({ code: 1, stdout: expect.stringContaining('[emulator] not running') });
});

test('start on a port already in use fails with one line saying so, before it makes or seeds the data folder (issue 40 item 6)', async () => {
  const it = await instance();
  await occupy(it.port);
  const run = await it.start();
  expectOneLineFailure(run, `[emulator] port ${it.port} on 127.0.0.1 is already in use`);
  expect(run.stdout).not.toContain('seeding');
  expect(existsSync(it.data)).toBe(false);
});

test('stop with no emulator running exits 0 and says there was nothing to stop, so a `set -e` teardown goes on (issue 40 item 6)', async () => {
  const it = await instance();
  const run = await it.run('stop');
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(run.stdout.trim()).toBe(`[emulator] no emulator is running for data folder ${it.data}; nothing to stop`);
});

test('start with a data folder that cannot be created fails with one line', async () => {
  const folder = tempFolder();
  const file = join(folder, 'a-file');
  writeFileSync(file, '');
  const run = await emulator('start', '--port', String(await freePort()), '--data', join(file, 'data'));
  expectOneLineFailure(run, `[emulator] cannot use data folder ${join(file, 'data')}`);
});

test('commands for a data folder with no emulator say how to start one', async () => {
  const it = await instance();
  for (const command of ['env', 'reset', 'clock']) {
    expectOneLineFailure(await it.run(command), `no emulator is running for data folder ${it.data}; start one with \`npx emulator start --data ${it.data}\``);
  }
});

test('seed --scans shows its progress on stderr, a line per tenth done, and the result on stdout', async () => {
  const it = await instance();
  expect((await it.start()).code).toBe(0);
  // 20,000 scans a chunk (use-cases/control/seed.ts): 60,000 scans are a third, two thirds, then done.
  const seeded = await it.run('seed', '--scans', '60000');
  expect(seeded.code).toBe(0);
  expect(seeded.stderr.trimEnd().split('\n')).toEqual(['[emulator] seeding: 33% (20,000 of 60,000 scans)', '[emulator] seeding: 66% (40,000 of 60,000 scans)']);
  expect(seeded.stdout).toMatch(/^\[emulator\] seeded 60000 scans in \d+\.\d s\n$/);
  await it.run('stop');
});
