/**
 * The `harness` command from outside when it cannot run (exit 2, one line saying what to fix), its
 * listings, and the control token an emulator off loopback asks for: dist/harness/cli.js spawned
 * against servers running in this process.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { harness } from './cli-support.js';

describe('could not run: exit 2 and one line saying what to fix', () => {
  test('the emulator is not reachable', async () => {
    const run = await harness(['verify', '--callback', 'http://127.0.0.1:9/callback', '--emulator', 'http://127.0.0.1:9']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('[harness] the emulator at http://127.0.0.1:9 is not reachable (bad port): start it with `npx emulator start` or pass --emulator URL\n');
  });

  test('no callback, a bad config, an unknown check, an unknown format', async () => {
    const noCallback = await harness(['verify']);
    expect([noCallback.code, noCallback.stderr]).toEqual([2, '[harness] no callback URL: pass --callback URL (the production callback URL of the agency)\n']);
    const config = join(process.cwd(), 'package.json');
    const badConfig = await harness(['verify', '--callback', 'http://127.0.0.1:9/callback', '--config', config]);
    expect(badConfig.code).toBe(2);
    expect(badConfig.stderr).toMatch(/^\[harness\] the config .*package\.json: \(file\): Unrecognized keys/);
    expect(badConfig.stderr.trim().split('\n')).toHaveLength(1);
    const unknownCheck = await harness(['verify', '--callback', 'http://127.0.0.1:9/callback', '--only', 'state.nope']);
    expect([unknownCheck.code, unknownCheck.stderr]).toEqual([2, '[harness] --only names unknown check state.nope; `harness checks` lists them\n']);
    const unknownFormat = await harness(['verify', '--format', 'pdf']);
    expect(unknownFormat.code).toBe(2);
    expect(unknownFormat.stderr).toMatch(/^\[harness\] option '--format <formats>' argument 'pdf' is invalid\. unknown format pdf; choose from text, json, junit, html, markdown\n$/);
  });

  test('`harness checks` lists every check id with its group', async () => {
    const run = await harness(['checks']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(50);
    expect(run.stdout).toMatch(/^state\.tampered_rejected +PKCE and state: A callback with a tampered state is rejected \(changed, truncated, extended, halved, case-swapped, empty\)$/m);
    expect(run.stdout).toMatch(/^journey\.state\.rate_limited +Journey: The service's 429 rate_limited is shown as its own state$/m);
  });

  test('`harness scenarios` lists every scenario with its phase and the checks it feeds, as the config leaves them', async () => {
    const run = await harness(['scenarios']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^entry-rate-limited +production: .*\n +feeds behaviour\.retry_after_honoured, journey\.state\.rate_limited/m);
    expect(run.stdout.match(/^\S/gm)).toHaveLength(19);
  });
});

describe('an emulator off loopback, behind its control token', () => {
  const seen: Array<string | undefined> = [];
  let server: Server;
  let url: string;
  let agency: Server;
  let callback: string;
  beforeAll(async () => {
    agency = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>campaign</h1>'));
    await new Promise<void>((resolve) => agency.listen(0, '127.0.0.1', resolve));
    callback = `http://127.0.0.1:${(agency.address() as AddressInfo).port}/callback`;
    // Answers the preflight's control calls only with `Authorization: Bearer s3cret`, as emulator/control/guard.ts does off loopback.
    server = createServer((req, res) => {
      const path = req.url ?? '/';
      seen.push(req.headers.authorization);
      const answer = (status: number, body: object) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers.authorization !== 'Bearer s3cret') return answer(403, { error: 'forbidden', message: 'The control plane answers loopback callers only; start with --control-token to allow others.' });
      if (path === '/_emulator/health') return answer(200, { status: 'ok', base_url: url });
      if (path === '/_emulator/faults') return answer(200, { data: [] });
      if (path.startsWith('/_emulator/promotions')) return answer(200, { data: [{ id: 1, slug: 'only-one', name: 'Only one', default: true, mechanic: 'instant_win', live: true, state: 'live' }] });
      if (path === '/_emulator/console?promotion=1') return answer(200, { promotion: { live: true }, experience: { approved_at: null, routing_paused: false, routing: { to: 'agency' } } });
      answer(404, { error: 'not_found' });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await new Promise((resolve) => agency.close(resolve));
  });

  test('the token goes with every control call, from --control-token or HARNESS_CONTROL_TOKEN', async () => {
    const flag = await harness(['doctor', '--callback', callback, '--emulator', url, '--control-token', 's3cret']);
    expect([flag.code, flag.stderr]).toEqual([0, '']);
    const env = await harness(['doctor', '--callback', callback, '--emulator', url], { env: { HARNESS_CONTROL_TOKEN: 's3cret' } });
    expect([env.code, env.stderr]).toEqual([0, '']);
    expect(seen.length).toBeGreaterThanOrEqual(6);
    expect(new Set(seen)).toEqual(new Set(['Bearer s3cret']));
  });

  test('without the token, or with another, it is exit 2 and one line saying what to pass', async () => {
    const none = await harness(['doctor', '--callback', callback, '--emulator', url]);
    expect([none.code, none.stderr]).toEqual([2, `[harness] the emulator at ${url} refused its control plane without a token: it answers without one only on loopback (127.0.0.1, localhost or [::1]) and only when not told it is reachable from elsewhere (--public-url, a --host that is not loopback); pass its control token (--control-token or HARNESS_CONTROL_TOKEN; \`npx emulator env\` exports it)\n`]);
    const wrong = await harness(['verify', '--callback', callback, '--emulator', url, '--control-token', 'nope']);
    expect([wrong.code, wrong.stderr]).toEqual([2, `[harness] the emulator at ${url} refused the control token: pass the token it was started with (--control-token or HARNESS_CONTROL_TOKEN)\n`]);
  });
});
