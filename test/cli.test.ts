/** The `emulator` command from outside: the built CLI spawned on temp data folders and free ports. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import type { EnvValues } from '../emulator/control/env.js';
import type { Fixture } from '../emulator/fixture.js';
import { type CliRun as Run, runCli as emulator, runCliWith as emulatorWith } from './hardening/processes.js';
import { DEFAULT_FIXTURE } from './world.js';

const folders: string[] = [];
const servers: Server[] = [];

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'emulator-cli-'));
  folders.push(folder);
  return folder;
}

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(port, '127.0.0.1', () => resolve(server)).once('error', reject);
  });
}

async function freePort(): Promise<number> {
  const server = await listenOn(0);
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterEach(async () => {
  for (const server of servers.splice(0)) server.close();
  for (const folder of folders.splice(0)) {
    const instance = join(folder, 'data', 'instance.json');
    if (existsSync(instance)) {
      const { pid } = JSON.parse(readFileSync(instance, 'utf8')) as { pid: number };
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    rmSync(folder, { recursive: true, force: true });
  }
});

/** A data folder and a free port, and the CLI bound to them. */
async function instance(fixture?: Fixture) {
  const folder = tempFolder();
  const data = join(folder, 'data');
  const port = await freePort();
  const fixturePath = join(folder, 'fixture.json');
  if (fixture) writeFileSync(fixturePath, JSON.stringify(fixture));
  const fixtureArgs = fixture ? ['--fixture', fixturePath] : [];
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    data, port, baseUrl, fixturePath,
    start: (...args: string[]) => emulator('start', '--port', String(port), '--data', data, ...fixtureArgs, ...args),
    run: (command: string, ...args: string[]) => emulator(command, ...args, '--data', data),
    env: async () => JSON.parse((await emulator('env', '--json', '--data', data)).stdout) as EnvValues,
    campaign: (key: string) => fetch(`${baseUrl}/api/experience/v1/campaign`, { headers: { authorization: `Bearer ${key}` } }),
  };
}

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
  const follower = spawn(process.execPath, [fileURLToPath(new URL('../dist/emulator/cli.js', import.meta.url)), 'logs', '-f', '--data', it.data]);
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

/** One line, prefixed, no stack trace. */
function expectOneLineFailure(run: Run, text: string) {
  expect(run.code).toBe(1);
  expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^\[emulator\] /)]);
  expect(run.stderr).toContain(text);
}

test('start on a port already in use fails with one line saying so, before it makes or seeds the data folder (issue 40 item 6)', async () => {
  const it = await instance();
  servers.push(await listenOn(it.port));
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

test('a usage error exits 2 in `emulator` as in `harness`, with one line (and a suggestion where one fits) (issue 40 item 6)', async () => {
  const it = await instance();
  const harness = await new Promise<number | null>((resolve) => spawn(process.execPath, [fileURLToPath(new URL('../dist/harness/cli.js', import.meta.url)), 'verify', '--bogus'], { stdio: 'ignore' }).once('close', resolve));
  const runs = {
    unknownOption: await emulator('start', '--prot', '5'),
    unknownCommand: await emulator('strat'),
    badValue: await emulator('start', '--port', 'many'),
    // The required --scans is checked after the unknown option, so the typo gets its suggestion.
    seedTypo: await it.run('seed', '--scan', '7'),
    missingRequired: await it.run('seed'),
    nestedMissing: await it.run('callback', 'set'),
    // A shortening of one command suggests that one, not the nearest spelling (`start`).
    shortened: await emulator('stat'),
    bareCallback: await it.run('callback', 'set', 'http://localhost:3000/callback'),
    backwards: await it.run('clock', 'advance', '-1h'),
  };
  expect(harness).toBe(2);
  expect(Object.fromEntries(Object.entries(runs).map(([name, run]) => [name, run.code]))).toEqual(Object.fromEntries(Object.keys(runs).map((name) => [name, harness])));
  expect(runs.seedTypo.stderr).toMatch(/^\[emulator\] unknown option '--scan'\n\(Did you mean --scans\?\)/);
  expect(runs.missingRequired.stderr.trim()).toBe("[emulator] required option '--scans <n>' not specified");
  expect(runs.nestedMissing.stderr.trim()).toBe("[emulator] required option '--production <url>' not specified");
  expect(runs.shortened.stderr.trim()).toBe("[emulator] unknown command 'stat'\n(Did you mean status?)");
  expect(runs.bareCallback.stderr.trim()).toBe('[emulator] callback set takes each URL after its flag, so a preview is never registered as production: npx emulator callback set --production http://localhost:3000/callback [--preview URL]');
  expect(runs.backwards.stderr).toMatch(/^\[emulator\] the clock only moves forward: -1h would take it back; `npx emulator clock reset` puts it back on system time/);
  expect(existsSync(it.data)).toBe(false);
});

test('start with a fixture that is not JSON fails with one line naming the file', async () => {
  const it = await instance();
  writeFileSync(it.fixturePath, '{ "seed": ');
  expectOneLineFailure(await it.start('--fixture', it.fixturePath), `invalid fixture ${it.fixturePath}: not JSON`);
});

test('start with an invalid fixture fails with one line naming the file and the JSON path', async () => {
  const fixture = structuredClone(DEFAULT_FIXTURE);
  fixture.promotion.prizes[1]!.odds = 2;
  const it = await instance(fixture);
  expectOneLineFailure(await it.start(), `invalid fixture ${it.fixturePath}: promotion.prizes.1.odds`);
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

test('--public-url refuses what is not an http(s) origin, with one line, as a usage error', async () => {
  const it = await instance();
  const run = await it.start('--public-url', 'https://promo.example.test/emulator');
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('A public URL is an origin only');
  const bad = await emulatorWith({ EMULATOR_PUBLIC_URL: 'ftp://promo.example.test' }, 'start', '--port', String(it.port), '--data', it.data);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('A public URL uses http or https');
});

test('clock with a value it cannot read prints the accepted forms and exits 2, before looking for an emulator', async () => {
  const it = await instance();
  for (const args of [['freeze', 'yesterday'], ['advance', 'soon'], ['unfreeze', 'now']]) {
    const run = await it.run('clock', ...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^\[emulator\] .+\. Usage:\n/);
    expect(run.stderr).toContain('clock freeze 2026-12-24T18:00:00Z');
    expect(run.stderr).toContain('clock advance 31m');
    expect(run.stderr).not.toContain('{"freeze"');
  }
  expect((await it.run('clock', 'freeze', 'yesterday')).stderr).toContain('yesterday is not an ISO time');
});

test('clock --help says what reset and clock reset do to the clock', async () => {
  const help = await emulator('clock', '--help');
  expect(help.code).toBe(0);
  expect(help.stdout).toContain('`npx emulator reset` seeds the world again but leaves the clock where it stands');
  expect(help.stdout).toMatch(/clock reset +back to system time/);
});

test('seed --scans shows its progress on stderr, a line per tenth done, and the result on stdout', async () => {
  const it = await instance();
  expect((await it.start()).code).toBe(0);
  // 20,000 scans a chunk (control/seed-rows.ts): 60,000 scans are a third, two thirds, then done.
  const seeded = await it.run('seed', '--scans', '60000');
  expect(seeded.code).toBe(0);
  expect(seeded.stderr.trimEnd().split('\n')).toEqual(['[emulator] seeding: 33% (20,000 of 60,000 scans)', '[emulator] seeding: 66% (40,000 of 60,000 scans)']);
  expect(seeded.stdout).toMatch(/^\[emulator\] seeded 60000 scans in \d+\.\d s\n$/);
  await it.run('stop');
});
