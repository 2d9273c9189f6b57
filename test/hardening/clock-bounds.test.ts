/**
 * Issue 14, defect 1: one control call used to break the emulator and its data folder. A clock
 * move far into the future answered 500 but was saved; from then on health answered 500, `status`
 * and `stop` lost the process, and a restart never became healthy. Now every clock change is
 * checked before it applies, against a span where every time derived from the clock (key
 * expiries 90 days out, 104 days of seeded history back, webhook retries 6 hours out) is still a
 * valid date with a four-digit year; a refused change answers 400 and saves nothing.
 * @see README "Virtual clock"
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../emulator/app.js';
import type { Clock } from '../../emulator/clock.js';
import { createLogger } from '../../emulator/logger.js';
import { openWorld } from '../../emulator/server.js';
import { getMeta, setMeta } from '../../emulator/store/db.js';
import request from 'supertest';
import { DEFAULT_FIXTURE, FROZEN_AT, testWorld } from '../world.js';
import { freePort, instanceWritten, openData, runCli, scratchFolder, startEmulator } from './processes.js';
import { assertProperty } from './support/fuzz.js';

const DAY_MS = 86_400_000;
/** The furthest the emulator derives a time from its clock: key expiry ahead, seeded history behind, the last webhook retry. */
const DERIVED_OFFSETS_MS = [90 * DAY_MS, -(90 + 14) * DAY_MS, 6 * 3_600_000];

const savedClock = (t: ReturnType<typeof testWorld>) => getMeta(t.world.db, 'clock');

/** A valid date whose ISO form has a four-digit year, as every serializer and schema expects. */
function isSaneTime(at: number): boolean {
  return Number.isFinite(at) && /^\d{4}-\d\d-\d\dT/.test(new Date(at).toISOString());
}

describe('clock bounds (issue 14, defect 1)', () => {
  it('refuses {"advance":"100000000d"} with a 400 JSON error, saves nothing, and health stays 200', async () => {
    const t = testWorld();
    const before = savedClock(t);
    const res = await t.api.post('/_emulator/clock').send({ advance: '100000000d' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: 'invalid_request', message: expect.stringContaining('9999-01-01'), details: { advance: [expect.stringContaining('100000000d')] } });
    expect(savedClock(t)).toBe(before);
    expect(t.world.clock.now()).toBe(FROZEN_AT);
    const health = await t.api.get('/_emulator/health');
    expect(health.status).toBe(200);
    expect(health.body.clock.now).toBe('2026-11-21T10:00:00.000Z');
  });

  it('refuses a freeze before 2000 or after 9998, and keeps the clock where it was', async () => {
    const t = testWorld();
    for (const at of ['1999-12-31T23:59:59Z', '9999-06-01T00:00:00Z']) {
      const res = await t.api.post('/_emulator/clock').send({ freeze: at });
      expect(res.status, at).toBe(400);
      expect(res.body.details, at).toEqual({ freeze: [expect.stringContaining('2000-01-01')] });
    }
    expect(t.world.clock.now()).toBe(FROZEN_AT);
    expect((await t.api.post('/_emulator/clock').send({ freeze: '9999-01-01T00:00:00Z' })).status).toBe(200);
    expect((await t.api.post('/_emulator/clock').send({ advance: '1ms' })).status).toBe(400);
  });

  it('accepts a change only when every time derived from the new clock is a valid date, else saves nothing', async () => {
    const t = testWorld();
    const move = fc.oneof(
      fc.bigInt({ min: 0n, max: 10n ** 12n }).map((amount) => ({ advance: `${amount}${['ms', 's', 'm', 'h', 'd'][Number(amount % 5n)]}` })),
      fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((at) => ({ freeze: at.toISOString() })),
      fc.constant({ unfreeze: true }),
    );
    await assertProperty(
      fc.asyncProperty(move, async (body) => {
        const setting = () => {
          const { mode, frozenAt, offsetMs } = t.world.clock.state();
          return { saved: savedClock(t), mode, frozenAt, offsetMs };
        };
        const before = setting();
        const res = await t.api.post('/_emulator/clock').send(body);
        if (res.status === 200) {
          for (const offset of DERIVED_OFFSETS_MS) expect(isSaneTime(t.world.clock.now() + offset), JSON.stringify(body)).toBe(true);
        } else {
          expect(res.status, JSON.stringify(body)).toBe(400);
          expect(setting(), JSON.stringify(body)).toEqual(before);
        }
        expect((await t.api.get('/_emulator/health')).status).toBe(200);
      }),
      300,
    );
  });

  it('goes back to real time with {"reset":true}', async () => {
    const t = testWorld();
    const res = await t.api.post('/_emulator/clock').send({ reset: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mode: 'real', offsetMs: 0 });
    expect(JSON.parse(savedClock(t)!)).toMatchObject({ mode: 'real' });
  });

  it('answers health even when the clock cannot be read', async () => {
    const t = testWorld();
    const broken: Clock = { ...t.world.clock, now: () => Number.NaN, iso: () => new Date(Number.NaN).toISOString(), state: () => ({ mode: 'offset', frozenAt: 0, offsetMs: 0, now: new Date(Number.NaN).toISOString() }) };
    const res = await request(createApp({ ...t.world, clock: broken })).get('/_emulator/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', pid: process.pid });
  });

  it('refuses to open a world whose saved clock is out of range', () => {
    const scratch = scratchFolder();
    try {
      const logger = createLogger('emulator', { level: 'silent' });
      const world = openWorld({ fixture: DEFAULT_FIXTURE, data: scratch.data, logger });
      setMeta(world.db, 'clock', JSON.stringify({ mode: 'offset', offsetMs: 100_000_000 * DAY_MS }));
      world.db.close();
      expect(() => openWorld({ fixture: DEFAULT_FIXTURE, data: scratch.data, logger })).toThrow(/^is out of range \(it would show no valid date; the clock must stay between 2000-01-01T00:00:00.000Z and 9999-01-01T00:00:00.000Z\)$/);
    } finally {
      scratch.remove();
    }
  });
});

describe('a data folder whose saved clock is out of range (issue 14, defect 1)', () => {
  it('start fails with one line saying how to repair it; `emulator clock reset` repairs it without a running emulator', async () => {
    const scratch = scratchFolder((fixture) => ({ ...fixture, history: { scans: 0 } }));
    try {
      const first = await startEmulator({ data: scratch.data, fixture: scratch.fixture });
      await first.stop();
      const db = openData(scratch.data);
      setMeta(db, 'clock', JSON.stringify({ mode: 'offset', offsetMs: 100_000_000 * DAY_MS }));
      db.close();

      const port = await freePort();
      const refused = await runCli('start', '--data', scratch.data, '--fixture', scratch.fixture, '--port', String(port));
      expect(refused.code).toBe(1);
      expect(refused.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^\[emulator\] the virtual clock saved in .* is out of range .*; run `npx emulator clock reset --data .*`/)]);

      const reset = await runCli('clock', 'reset', '--data', scratch.data);
      expect(reset).toMatchObject({ code: 0, stdout: expect.stringContaining('clock follows system time') });
      const again = await startEmulator({ data: scratch.data, fixture: scratch.fixture });
      const clock = (await (await fetch(`${again.baseUrl}/_emulator/clock`)).json()) as { mode: string };
      expect(clock.mode).toBe('real');
      await instanceWritten(scratch.data);
      expect((await runCli('clock', 'advance', '1h', '--data', scratch.data)).code).toBe(0);
      const back = await runCli('clock', 'reset', '--data', scratch.data);
      expect(back).toMatchObject({ code: 0, stdout: expect.stringContaining('clock follows system time') });
      await again.stop();
    } finally {
      scratch.remove();
    }
  });
});

