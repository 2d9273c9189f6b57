/** The `emulator` command's options from outside: --watch, --promotion and --public-url on a running emulator. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { runCliWith as emulatorWith } from '../hardening/processes.js';
import { DEFAULT_FIXTURE } from '../world.js';
import { cleanUp, expectOneLineFailure, instance } from './support.js';

afterEach(cleanUp);

test('with --watch a copy edit applies live and a keys or packs edit is reported, not applied', async () => {
  const it = await instance(DEFAULT_FIXTURE);
  expect((await it.start('--watch')).code).toBe(0);
  const env = await it.env();
  const headline = async () => ((await (await it.campaign(env.sandbox_key!)).json()) as { campaign: { copy: { headline: string } } }).campaign.copy.headline;

  const fixture = structuredClone(DEFAULT_FIXTURE);
  fixture.promotion.copy.headline = 'Edited while running';
  writeFileSync(it.fixturePath, JSON.stringify(fixture));
  await expect.poll(headline, { timeout: 5000 }).toBe('Edited while running');

  fixture.agency_keys = ['production'];
  fixture.brands[0]!.skus[0]!.batches[0]!.packs = 50;
  writeFileSync(it.fixturePath, JSON.stringify(fixture));
  const log = () => readFileSync(join(it.data, 'emulator.log'), 'utf8');
  await expect.poll(log, { timeout: 5000 }).toContain('brands, agency_keys need a reset; run `npx emulator reset`');
  expect(await it.env()).toEqual(env);
  expect((await it.campaign(env.sandbox_key!)).status).toBe(200);
});

test('--promotion: env exports another promotion\'s values and says which promotion they are for', async () => {
  const it = await instance();
  expect((await it.start()).code).toBe(0);
  const started = await it.env();
  const codes = started.promotions.find((promotion) => promotion.slug === 'nordkakao-cafe-codes')!;
  const exports = (await it.run('env', '--promotion', 'nordkakao-cafe-codes')).stdout;
  expect(exports.split('\n')[0]).toBe('# promotion #2 nordkakao-cafe-codes (Nordkakao Café Codes)');
  expect(exports).toContain(`export PROMO_SANDBOX_KEY='${codes.sandbox_key}'\n`);
  expect(exports).toContain("export PROMO_BRAND_SLUG='nordkakao'\n");
  expect((await it.run('env')).stdout.split('\n')[0]).toBe('# promotion #1 spring-instant-win (Spring Instant Win), the default: name another with --promotion');
  expectOneLineFailure(await it.run('env', '--promotion', 'nope'), 'No promotion "nope"');
});

test('--public-url: pages and links carry it, the CLI keeps calling where the emulator listens, and EMULATOR_PUBLIC_URL works too', async () => {
  const it = await instance();
  const started = await it.start('--public-url', 'https://promo-tunnel.example.test/');
  expect(started.code).toBe(0);
  expect(started.stdout).toContain('Base URL         https://promo-tunnel.example.test\n');
  expect(started.stdout).toContain(`Listens on       ${it.baseUrl} (the base URL is the public URL; the CLI calls here)`);
  const env = await it.env();
  expect(env.base_url).toBe('https://promo-tunnel.example.test');
  expect(env.dashboard_url).toBe(`${it.baseUrl}/`);
  const campaign = (await (await it.campaign(env.sandbox_key!)).json()) as { authorize_url: string };
  expect(campaign.authorize_url).toBe('https://promo-tunnel.example.test/authorize');
  // Reachable from elsewhere: the control plane asks for a token made for the run, which the CLI sends and env gives the harness.
  expect(started.stdout).toContain('[emulator] its public URL is https://promo-tunnel.example.test: the control plane asks every caller');
  expect((await fetch(`${it.baseUrl}/_emulator/env`)).status).toBe(403);
  const { control_token: token } = JSON.parse(readFileSync(join(it.data, 'instance.json'), 'utf8')) as { control_token: string };
  expect((await it.run('env')).stdout).toContain(`export HARNESS_CONTROL_TOKEN='${token}'\n`);
  expect((await it.run('stop')).code).toBe(0);

  const other = await instance();
  const byVariable = await emulatorWith({ EMULATOR_PUBLIC_URL: 'http://localhost:8080' }, 'start', '--port', String(other.port), '--data', other.data);
  expect(byVariable.code).toBe(0);
  expect((await other.env()).base_url).toBe('http://localhost:8080');
  expect((await other.run('stop')).code).toBe(0);
});
