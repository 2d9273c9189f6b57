/** `emulator webhooks listen` from outside: the built CLI, spawned against a running emulator, forwarding to a receiver. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import { holdFolderLock, releaseFolderLock } from '../../emulator/cli/folder-lock.js';
import { writeInstance } from '../../emulator/cli/instance.js';
import { dataPaths } from '../../emulator/cli/paths.js';
import { type RunningEmulator, captureReceiver, recordScan, runningEmulator } from './emulator.js';

const CLI = fileURLToPath(new URL('../../dist/emulator/cli.js', import.meta.url));

let t: RunningEmulator;
let data: string;
let receiver: Awaited<ReturnType<typeof captureReceiver>>;
const children: ChildProcess[] = [];

beforeEach(async () => {
  t = await runningEmulator();
  receiver = await captureReceiver();
  data = mkdtempSync(join(tmpdir(), 'emulator-listen-'));
  // The emulator runs in this process: the instance file names it, as `start` would.
  writeInstance(dataPaths(data), { pid: process.pid, base_url: t.running.baseUrl, fixture: 'default.json', started_at: '2026-11-21T10:00:00.000Z' });
  // The in-process server stands for a started emulator: it holds the folder as `emulator start` does.
  holdFolderLock(dataPaths(data));
});
afterEach(async () => {
  releaseFolderLock();
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await receiver.close();
  await t.running.close();
  rmSync(data, { recursive: true, force: true });
});

/** Starts `emulator webhooks listen <args> --data <dir>`; `output()` is what it printed so far. */
async function listen(...args: string[]) {
  const child = spawn(process.execPath, [CLI, 'webhooks', 'listen', ...args, '--data', data], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const output = () => stdout;
  await vi.waitFor(() => expect(stdout + stderr).toMatch(/Ctrl-C to stop|\n$/), { timeout: 10_000, interval: 50 });
  return { child, output, errors: () => stderr, exited, printed: (pattern: RegExp) => vi.waitFor(() => expect(stdout).toMatch(pattern), { timeout: 10_000, interval: 50 }) };
}

test('prints each delivery and forwards it with its body, event and delivery id, signed with the printed secret and the emulator\'s t', async () => {
  const listening = await listen('--forward-to', receiver.url);
  // The banner may arrive in more than one chunk: wait for its signing line, then read it.
  await listening.printed(/signed with whsec_\S+ \(kept in \S+, the same on every listen\)/);
  const secret = /signed with (whsec_[A-Za-z0-9_-]+) \(kept in (\S+), the same on every listen\)/.exec(listening.output())!;
  expect(secret[2]).toBe(join(data, 'listen-secret'));
  expect(statSync(secret[2]!).mode & 0o777).toBe(0o600);

  recordScan(t.world);
  await listening.printed(/--> scan\.processed {2}dlv_[0-9a-f]{24} {2}signature valid\n.*<-- \[200\] POST http:\/\/127\.0\.0\.1:\d+\/hooks\n/);
  await vi.waitFor(() => expect(receiver.requests).toHaveLength(1), { timeout: 5000, interval: 20 });
  const [sent] = (await t.api.get('/_emulator/sink/listen/deliveries').expect(200)).body.data as Array<{ body: string; headers: Record<string, string> }>;
  const [forwarded] = receiver.requests;
  expect(forwarded!.body).toBe(sent!.body);
  for (const header of ['content-type', 'user-agent', 'x-service-event', 'x-service-delivery']) expect(forwarded!.headers[header], header).toBe(sent!.headers[header]);
  const [, at, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(forwarded!.headers['x-service-signature'] as string)!;
  expect(Number(at)).toBe(Math.floor(t.world.clock.now() / 1000));
  expect(v1).toBe(createHmac('sha256', secret[1]!).update(`${at}.${forwarded!.body}`).digest('hex'));

  listening.child.kill('SIGINT');
  expect(await listening.exited).toBe(0);
  expect(listening.output()).toMatch(/\[emulator\] stopped listening\n$/);

  const again = await listen('--forward-to', receiver.url);
  await again.printed(/signed with whsec_\S+ /);
  expect(again.output()).toContain(`signed with ${secret[1]} `);
  expect(readFileSync(secret[2]!, 'utf8').trim()).toBe(secret[1]);
});

test('shows only deliveries that arrive after it starts, only the events asked for, and carries on after `emulator reset`', async () => {
  await t.createSink({ name: 'listen' });
  const before = recordScan(t.world);
  await t.received('listen', 1);
  const listening = await listen('--events', 'scan.processed', 'batch.generated', '--print-body');
  const env = envValues(t.world);
  const batch = () => t.api.post(`/api/v1/brands/${env.brand_slug}/skus/1/batches`).set('Authorization', `Bearer ${env.reporting_token}`).send({ quantity: 2, purpose: 'listen' }).expect(202);
  const after = recordScan(t.world);
  await batch();
  await listening.printed(/--> batch\.generated /);
  await listening.printed(new RegExp(`"scan":\\{"id":${after},`));
  // Printed in the order the sink received them: the older scan would have come first.
  expect(listening.output().match(/--> scan\.processed /g)).toHaveLength(1);
  expect(listening.output()).not.toContain(`"scan":{"id":${before},`);
  await t.api.post('/_emulator/reset').send({}).expect(200);
  await listening.printed(/the emulator was reset; still listening\n/);
  await batch();
  await vi.waitFor(() => expect(listening.output().match(/--> batch\.generated /g)).toHaveLength(2), { timeout: 10_000, interval: 50 });
  expect(listening.output()).not.toContain('--> batch.export_ready');
  expect(receiver.requests).toEqual([]);
});

test('a --forward-to that is not an http(s) URL is refused in one line, exit 1', async () => {
  const refused = await listen('--forward-to', 'localhost:3000/hooks');
  expect(await refused.exited).toBe(1);
  expect(refused.errors()).toBe('[emulator] --forward-to needs an http or https URL, such as http://localhost:3000/hooks; got "localhost:3000/hooks"\n');
});
