/** The fixtures' worker emulator without Playwright: started or attached, approval, packs, clock, faults, reset. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, expect, test } from 'vitest';
import { createLogger } from '../../emulator/logger.js';
import { startServer } from '../../emulator/server.js';
import { type WorkerEmulator, workerEmulator } from '../../playwright/emulator.js';
import { freePort } from '../hardening/processes.js';
import { DEFAULT_FIXTURE } from '../world.js';

/** A site that answers (the fixtures approve only a callback that answers): every path is 200. */
const site = createServer((_req, res) => res.end('ok')).listen(0, '127.0.0.1');
const AGENCY = await new Promise<{ callbackUrl: string; previewUrl: string }>((resolve) =>
  site.once('listening', () => {
    const { port } = site.address() as AddressInfo;
    resolve({ callbackUrl: `http://127.0.0.1:${port}/callback`, previewUrl: `http://127.0.0.1:${port}/preview` });
  }),
);
afterAll(() => void site.close());
const ALONE = { index: 0, of: 1 };
const open: WorkerEmulator[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const emulator of open.splice(0)) await emulator.close();
  for (const close of closers.splice(0)) await close();
});

const read = async <T>(url: string) => (await (await fetch(url)).json()) as T;

const started = async (options: Partial<Parameters<typeof workerEmulator>[0]> = {}, share = ALONE) => {
  const emulator = await workerEmulator({ approve: true, ...options }, share);
  open.push(emulator);
  return emulator;
};

test('a started emulator listens on a free loopback port with a data folder of its own, gone when it closes', async () => {
  const emulator = await started();
  expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(emulator.env).toMatchObject({ base_url: emulator.url, sandbox_key: expect.any(String), production_key: expect.any(String), brand_slug: 'alpenmilch' });
  const folder = emulator.dataDir!;
  expect(existsSync(join(folder, 'emulator.sqlite'))).toBe(true);
  expect(existsSync(join(folder, 'emulator.log'))).toBe(true);
  open.splice(0);
  await emulator.close();
  await expect(fetch(`${emulator.url}/_emulator/health`)).rejects.toThrow();
  expect(existsSync(folder)).toBe(false);
});

test('with the agency\'s URLs, the integration is approved with them, and approved again after reset()', async () => {
  const emulator = await started({ agency: AGENCY });
  const approved = async () => (await emulator.client.overview()).experience.approved_at;
  expect(await approved()).not.toBeNull();
  expect((await emulator.client.checklist()).complete).toBe(true);
  expect(emulator.agency).toEqual(AGENCY);
  await emulator.reset();
  expect(await approved()).not.toBeNull();
});

test('without approval, the checklist and the approval are left to the tests', async () => {
  const emulator = await started({ agency: AGENCY, approve: false });
  expect((await emulator.client.overview()).experience.approved_at).toBeNull();
  expect((await emulator.client.checklist()).complete).toBe(false);
});

test('an agency started per worker gets the emulator\'s URL and keys, and is stopped with it', async () => {
  let given: { url: string; sandbox: string | null } | undefined;
  let stopped = false;
  const emulator = await started({
    agency: async ({ url, env }) => {
      given = { url, sandbox: env.sandbox_key };
      return { ...AGENCY, close: async () => void (stopped = true) };
    },
  });
  expect(given).toEqual({ url: emulator.url, sandbox: emulator.env.sandbox_key });
  open.splice(0);
  await emulator.close();
  expect(stopped).toBe(true);
});

test('pack() hands out unentered packs of the outcome asked for, never the same twice', async () => {
  const emulator = await started();
  const packs = [await emulator.pack('won'), await emulator.pack('won'), await emulator.pack('pending_failed')];
  expect(packs.map((pack) => pack.outcome)).toEqual(['won', 'won', 'pending']);
  expect(packs[2]!.settles_as).toBe('failed');
  expect(new Set(packs.map((pack) => pack.code)).size).toBe(3);
});

test('workers attached to one emulator get disjoint shares of its packs', async () => {
  const running = await startServer({ fixture: DEFAULT_FIXTURE, data: ':memory:', host: '127.0.0.1', port: 0, logger: createLogger('emulator', { level: 'silent' }) });
  closers.push(() => running.close());
  const workers = [await started({ url: running.baseUrl }, { index: 0, of: 2 }), await started({ url: running.baseUrl }, { index: 1, of: 2 })];
  const taken = await Promise.all(workers.map(async (worker) => Promise.all([1, 2, 3, 4].map(() => worker.pack('lost')))));
  const codes = taken.map((packs) => new Set(packs.map((pack) => pack.code)));
  expect(codes.map((set) => set.size)).toEqual([4, 4]);
  expect([...codes[0]!].filter((code) => codes[1]!.has(code))).toEqual([]);
  const all = (await workers[0]!.client.packs()).data.length + (await workers[1]!.client.packs()).data.length;
  const { data } = await read<{ data: unknown[] }>(`${running.baseUrl}/_emulator/packs`);
  expect(all).toBe(data.length);
});

test('clock and faults go through the control plane', async () => {
  const emulator = await started();
  await emulator.clock.freeze('2026-12-24T18:00:00.000Z');
  expect(await emulator.clock.now()).toBe('2026-12-24T18:00:00.000Z');
  await emulator.clock.advance('31m');
  expect(await emulator.clock.now()).toBe('2026-12-24T18:31:00.000Z');
  await emulator.clock.unfreeze();
  expect(await read<{ mode: string }>(`${emulator.url}/_emulator/clock`)).toMatchObject({ mode: 'offset' });
  await emulator.faults.arm({ path: '/session/entry', status: 429, error: 'rate_limited', retry_after: 5 });
  expect((await read<{ data: unknown[] }>(`${emulator.url}/_emulator/faults`)).data).toHaveLength(1);
  await emulator.faults.clear();
  expect((await read<{ data: unknown[] }>(`${emulator.url}/_emulator/faults`)).data).toHaveLength(0);
  await expect(emulator.clock.freeze('yesterday')).rejects.toThrow(/POST \/_emulator\/clock answered 400/);
});

test('a started emulator seeds with the seed given; an attached one has no data folder of the fixtures\' own', async () => {
  const seeded = await started({ seed: 'another-seed' });
  const plain = await started();
  expect(seeded.env.sandbox_key).not.toBe(plain.env.sandbox_key);
  const attached = await started({ url: plain.url });
  expect(attached.env.sandbox_key).toBe(plain.env.sandbox_key);
  expect(attached.dataDir).toBeUndefined();
});

test('attaching where no emulator answers fails in one line that says what to do', async () => {
  await expect(workerEmulator({ url: 'http://127.0.0.1:9', approve: true }, ALONE)).rejects.toThrow(
    '[promo-emulator] no emulator answers at http://127.0.0.1:9 (emulatorUrl, or PROMO_EMULATOR_URL): start it with `npx emulator start`, or leave emulatorUrl unset to start one per worker',
  );
});

test('an agency whose callback does not answer is refused in one line, "not reachable", and the emulator keeps the URLs and approval it had (issue 40 item 5)', async () => {
  const plain = await started();
  const promotions = async () => (await read<{ data: Array<{ id: number; callbacks: unknown; approved_at: unknown }> }>(`${plain.url}/_emulator/promotions`)).data.find((promotion) => promotion.id === plain.env.promotion.id);
  const before = await promotions();
  const nobody = `http://127.0.0.1:${await freePort()}`;
  await expect(workerEmulator({ url: plain.url, agency: { callbackUrl: `${nobody}/callback`, previewUrl: `${nobody}/preview` }, approve: true }, ALONE)).rejects.toThrow(
    `[promo-emulator] the agency's callback ${nobody}/callback is not reachable (ECONNREFUSED): start your site, or correct the \`agency\` option; nothing was registered or approved`,
  );
  expect(await promotions()).toEqual(before);
});
