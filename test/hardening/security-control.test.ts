/**
 * The control plane, the console API and the dashboard from another machine: the built CLI bound
 * to 0.0.0.0, called on this machine's non-loopback address (on a host with loopback only, through
 * 127.0.0.2: see `remote`), so the emulator sees a non-loopback caller on a real socket. Bound off
 * loopback, the emulator asks every caller for the control token (the
 * one given with `--control-token`, else one it made, kept for the CLI in its instance file):
 * without it every such call is refused and changes nothing; with it, the token opens them. (test/control.test.ts checks the guard with a faked address.) A page
 * on another site whose name was rebound to 127.0.0.1 (DNS rebinding) calls from loopback too,
 * but names its own host: it is refused.
 * @see README "Security" (the control plane)
 */
import { networkInterfaces } from 'node:os';
import { afterEach, expect, test } from 'vitest';
import { testWorld } from '../world.js';
import { type EmulatorProcess, scratchFolder, startEmulator } from './processes.js';

const TOKEN = 'control-token-for-the-hardening-test-0123456789';

/** An IPv4 address of this machine that is not loopback, if it has one. */
const own = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
/**
 * Where a host has loopback only, 127.0.0.2 stands in: the emulator is preloaded with
 * second-address.mjs, which shows callers on that address as a non-loopback one.
 */
const remote = own ?? '127.0.0.2';
const preload = own ? [] : ['--import', new URL('./second-address.mjs', import.meta.url).href];

const READS = [
  '/_emulator/health', '/_emulator/env', '/_emulator/clock', '/_emulator/interactions', '/_emulator/secrets', '/_emulator/packs',
  '/_emulator/console', '/_emulator/console/keys', '/_emulator/console/checklist', '/_emulator/console/log', '/_emulator/webhooks', '/_emulator/sinks', '/',
];

const CHANGES: Array<[string, object]> = [
  ['/_emulator/reset', {}],
  ['/_emulator/clock', { advance: '1h' }],
  ['/_emulator/console/keys', { environment: 'production' }],
  ['/_emulator/console/callbacks', { production: 'https://agency.example/callback' }],
  ['/_emulator/sinks', { name: 'outsider' }],
  ['/_emulator/webhooks', { url: 'https://outsider.example/hooks' }],
];

let running: EmulatorProcess[] = [];
let cleanup: Array<() => void> = [];
afterEach(async () => {
  await Promise.all(running.map((emulator) => emulator.stop()));
  for (const remove of cleanup) remove();
  running = [];
  cleanup = [];
});

async function exposed(args: string[] = []): Promise<{ loopback: string; network: string; control: Record<string, string> }> {
  const scratch = scratchFolder((fixture) => ({ ...fixture, history: { scans: 0 } }));
  cleanup.push(scratch.remove);
  const emulator = await startEmulator({ data: scratch.data, fixture: scratch.fixture, host: '0.0.0.0', args, node: preload });
  running.push(emulator);
  return { loopback: emulator.baseUrl, network: `http://${remote}:${emulator.port}`, control: emulator.control() };
}

const post = (url: string, body: object, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** What the refused calls would have changed, read on loopback with the token (bound off loopback, the emulator asks every caller for it). */
async function state(loopback: string, control: Record<string, string>) {
  const json = async (path: string) => (await fetch(`${loopback}${path}`, { headers: control })).json() as Promise<Record<string, unknown>>;
  const overview = await json('/_emulator/console');
  return { clock: (await json('/_emulator/clock')).offsetMs, keys: overview.keys, experience: overview.experience, sinks: await json('/_emulator/sinks'), webhooks: await json('/_emulator/webhooks') };
}

test('without --control-token, every control, console and dashboard call from a non-loopback address is 403 and changes nothing', async () => {
  const { loopback, network, control } = await exposed();
  const before = await state(loopback, control);

  for (const path of READS) {
    const res = await fetch(`${network}${path}`);
    expect(res.status, path).toBe(403);
    if (path.startsWith('/_emulator')) expect(await res.json(), path).toEqual({ error: 'forbidden', message: expect.stringContaining('--control-token') });
  }
  for (const [path, body] of CHANGES) expect((await post(`${network}${path}`, body)).status, path).toBe(403);
  const form = await fetch(`${network}/console/approve`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'csrf=x' });
  expect(form.status).toBe(403);

  expect(await state(loopback, control)).toEqual(before);
  const { sandbox_key: key } = (await (await fetch(`${loopback}/_emulator/env`, { headers: control })).json()) as { sandbox_key: string };
  expect((await fetch(`${network}/api/experience/v1/campaign`, { headers: { authorization: `Bearer ${key}` } })).status, 'the APIs serve the network').toBe(200);
});

test('with --control-token, a non-loopback caller gets in with that bearer token only, and bound off loopback, so does a loopback caller', async () => {
  const { loopback, network, control } = await exposed(['--control-token', TOKEN]);
  expect(control).toEqual({ authorization: `Bearer ${TOKEN}` });

  for (const path of READS) {
    expect((await fetch(`${network}${path}`)).status, `${path} without a token`).toBe(403);
    expect((await fetch(`${network}${path}`, { headers: { authorization: `Bearer ${TOKEN}x` } })).status, `${path} with a wrong token`).toBe(403);
    expect((await fetch(`${network}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, `${path} with the token`).toBe(200);
    expect((await fetch(`${loopback}${path}`)).status, `${path} on loopback without a token`).toBe(403);
    expect((await fetch(`${loopback}${path}`, { headers: control })).status, `${path} on loopback with the token`).toBe(200);
  }
  expect((await post(`${network}/_emulator/clock`, { advance: '1h' })).status).toBe(403);
  expect((await post(`${network}/_emulator/clock`, { advance: '1h' }, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  expect((await state(loopback, control)).clock).toBe(3_600_000);
});

test('DNS rebinding: a loopback caller naming a host other than 127.0.0.1, localhost or [::1] is refused unless it has the token', async () => {
  const t = testWorld({ config: { controlToken: TOKEN } });
  for (const host of ['evil.example', 'evil.example:4010', 'localhost.evil.example:4010', '127.0.0.1.evil.example']) {
    expect((await t.api.get('/_emulator/env').set('Host', host)).status, host).toBe(403);
    expect((await t.api.post('/_emulator/reset').set('Host', host).send({})).status, host).toBe(403);
    expect((await t.api.get('/').set('Host', host)).status, `dashboard via ${host}`).toBe(403);
    expect((await t.api.get('/_emulator/env').set('Host', host).set('Authorization', `Bearer ${TOKEN}`)).status, `${host} with the token`).toBe(200);
  }
  for (const host of ['127.0.0.1:4010', 'localhost:4010', 'LOCALHOST', '[::1]:4010', '127.0.0.1']) {
    expect((await t.api.get('/_emulator/env').set('Host', host)).status, host).toBe(200);
    expect((await t.api.get('/').set('Host', host)).status, `dashboard via ${host}`).toBe(200);
  }
});
