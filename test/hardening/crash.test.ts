/**
 * Crash safety: the emulator is killed with SIGKILL while production entries pour in. Every entry
 * it answered 200 was committed (WAL, synchronous=NORMAL: a commit reaches the WAL before the
 * answer, and a killed process loses nothing the OS already has), so after a restart on the same
 * data folder each one reads back unchanged and the database passes its integrity check.
 * @see spec §2.5, §3
 */
import { afterEach, expect, test } from 'vitest';
import type { EnvValues } from '../../emulator/use-cases/control/env-values.js';
import { s256 } from '../../emulator/domain/pkce.js';
import { issueAuthCode } from '../../emulator/store/codes.js';
import { listCollectors } from '../../emulator/store/collectors.js';
import { getMeta } from '../../emulator/store/db.js';
import { productionEntryCounts } from '../../emulator/store/entries.js';
import { findUnitByCode } from '../../emulator/store/units.js';
import { integrityReport } from '../support/raw-storage.js';
import { VERIFIER } from '../world.js';
import { type EmulatorProcess, experienceCall, openData, scratchFolder, startEmulator } from './processes.js';

const SESSIONS = 400;
const KILL_AFTER = 150;
const WORKERS = 16;

interface Answered {
  token: string;
  body: { entry: unknown; delivery: unknown };
}

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function started(options: Parameters<typeof startEmulator>[0]): Promise<EmulatorProcess> {
  const emulator = await startEmulator(options);
  cleanup.push(() => emulator.stop('SIGKILL'));
  return emulator;
}

/** Runs `task` over `items`, `workers` at a time; a worker stops at its first network error. Resolves with how many stopped so. */
async function pool<T>(items: T[], workers: number, task: (item: T) => Promise<void>): Promise<number> {
  const queue = [...items];
  let cutOff = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
        try {
          await task(item);
        } catch (error) {
          if (!(error instanceof TypeError)) throw error;
          cutOff += 1; // fetch failed: the emulator is gone
          return;
        }
      }
    }),
  );
  return cutOff;
}

test(`SIGKILL under entry load: all entries answered 200 are there unchanged after restart; integrity_check ok`, { timeout: 60_000 }, async () => {
  const scratch = scratchFolder((fixture) => {
    fixture.brands[0]!.skus[0]!.batches[0]!.packs = 600;
    // Pending deliveries stay pending for the whole test, so "unchanged" means equal.
    return { ...fixture, history: { scans: 0 }, promotion: { ...fixture.promotion, delivery_delay_seconds: 86_400 } };
  });
  cleanup.push(scratch.remove);
  const emulator = await started({ data: scratch.data, fixture: scratch.fixture });
  const env = (await (await fetch(`${emulator.baseUrl}/_emulator/env`)).json()) as EnvValues;
  const packs = ((await (await fetch(`${emulator.baseUrl}/_emulator/packs?per_outcome=1000`)).json()) as { data: Array<{ code: string }> }).data;
  expect(packs.length).toBeGreaterThanOrEqual(SESSIONS);

  const db = openData(scratch.data);
  const eligible = listCollectors(db).filter((collector) => collector.tester === 0 && ['DE', 'AT', 'CH'].includes(collector.country ?? ''));
  const seed = getMeta(db, 'seed')!;
  const codes = packs.slice(0, SESSIONS).map((pack, i) => {
    const collector = eligible[i % eligible.length]!;
    const unitId = findUnitByCode(db, pack.code)!.id;
    // The emulator runs on the real clock.
    return issueAuthCode(db, seed, { promotionId: env.promotion_id, collectorId: collector.id, unitId, country: collector.country, codeChallenge: s256(VERIFIER), now: Date.now() });
  });
  db.close();

  const call = (baseUrl: string, method: 'GET' | 'POST', path: string, options: { session?: string; body?: object } = {}) =>
    experienceCall(baseUrl, env.production_key!, method, path, options);
  const sessions: Array<{ token: string; termsVersion: string }> = [];
  const exchanges = pool(codes, WORKERS, async (code) => {
    const res = await call(emulator.baseUrl, 'POST', '/sessions', { body: { authorization_code: code, code_verifier: VERIFIER } });
    const body = (await res.json()) as { session_token: string; terms: { version: string } };
    expect(res.status).toBe(201);
    sessions.push({ token: body.session_token, termsVersion: body.terms.version });
  });
  expect(await exchanges).toBe(0);
  expect(sessions).toHaveLength(SESSIONS);

  const answered: Answered[] = [];
  const refused: number[] = [];
  const cutOff = await pool(sessions, WORKERS, async ({ token, termsVersion }) => {
    const res = await call(emulator.baseUrl, 'POST', '/session/entry', { session: token, body: { consent: { accepted: true, age_confirmed: true, terms_version: termsVersion } } });
    const body = (await res.json()) as Answered['body'];
    if (res.status !== 200) {
      refused.push(res.status);
      return;
    }
    answered.push({ token, body });
    if (answered.length === KILL_AFTER) void emulator.stop('SIGKILL');
  });
  expect(await emulator.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect(refused).toEqual([]);
  expect(answered.length).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(cutOff, 'requests in flight when the emulator was killed').toBeGreaterThan(0);

  const restarted = await started({ data: scratch.data, fixture: scratch.fixture });
  const changed: Array<{ token: string; status: number; body: unknown }> = [];
  const reads = pool(answered, WORKERS, async ({ token, body }) => {
    const res = await call(restarted.baseUrl, 'GET', '/session', { session: token });
    const read = (await res.json()) as Answered['body'];
    if (res.status !== 200 || JSON.stringify([read.entry, read.delivery]) !== JSON.stringify([body.entry, body.delivery])) changed.push({ token, status: res.status, body: read });
  });
  expect(await reads).toBe(0);
  expect(changed).toEqual([]);

  const check = openData(scratch.data, { readonly: true });
  try {
    const { integrity, foreignKeys } = integrityReport(check);
    expect(integrity).toEqual([{ integrity_check: 'ok' }]);
    expect(foreignKeys).toEqual([]);
    const stored = productionEntryCounts(check).entries;
    expect(stored).toBeGreaterThanOrEqual(answered.length);

    // What was in flight left nothing half-made: every other session still enters, once.
    const done = new Set(answered.map((entry) => entry.token));
    const retries = pool(sessions.filter((session) => !done.has(session.token)), WORKERS, async ({ token, termsVersion }) => {
      const res = await call(restarted.baseUrl, 'POST', '/session/entry', { session: token, body: { consent: { accepted: true, age_confirmed: true, terms_version: termsVersion } } });
      if (res.status !== 200) refused.push(res.status);
    });
    expect(await retries).toBe(0);
    expect(refused).toEqual([]);
    expect(productionEntryCounts(check).entries).toBe(SESSIONS);
    console.info(`[crash] ${answered.length} entries answered 200 before SIGKILL with ${cutOff} requests in flight, ${stored} stored; after restart all ${answered.length} read back unchanged, integrity_check ok`);
  } finally {
    check.close();
  }
});
