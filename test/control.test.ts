import { describe, expect, it } from 'vitest';
import express from 'express';
import request from 'supertest';
import { worldRows } from '../emulator/control/world-rows.js';
import { endpointTable } from '../emulator/endpoints.js';
import { createControlState } from '../emulator/use-cases/control/state.js';
import { errorWriter } from '../emulator/errors.js';
import { testWorld } from './world.js';
import { getMeta } from '../emulator/store/db.js';
import { storedCount } from './support/stored.js';

describe('control plane /_emulator', () => {
  it('answers health', async () => {
    const res = await testWorld().api.get('/_emulator/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', clock: { mode: 'frozen', now: '2026-11-21T10:00:00.000Z' } });
  });

  it('answers health with a clock it cannot read reported as such, not as a failure', async () => {
    const t = testWorld();
    // A time beyond what a Date holds, as an offset clock could come to show: its ISO form throws.
    t.world.clock.state = () => ({ mode: 'offset', frozenAt: 0, offsetMs: 0, now: new Date(9e15).toISOString() });
    const res = await t.api.get('/_emulator/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', base_url: t.env.base_url, clock: { mode: 'unreadable' }, pid: process.pid });
  });

  it('env has the documented keys', async () => {
    const res = await testWorld().api.get('/_emulator/env');
    expect(Object.keys(res.body)).toEqual(expect.arrayContaining(['base_url', 'sandbox_key', 'production_key', 'reporting_token', 'brand_slug', 'promotion_id', 'packs', 'collectors']));
    expect(res.body.reporting_token).toMatch(/^pkd_[0-9a-f]{64}$/);
  });

  it('moves the clock: advance, freeze at a time, unfreeze', async () => {
    const t = testWorld();
    expect((await t.api.post('/_emulator/clock').send({ advance: '31m' })).body.now).toBe('2026-11-21T10:31:00.000Z');
    expect((await t.api.post('/_emulator/clock').send({ freeze: '2027-01-01T00:00:00Z' })).body).toMatchObject({ mode: 'frozen', now: '2027-01-01T00:00:00.000Z' });
    expect((await t.api.post('/_emulator/clock').send({ unfreeze: true })).body.mode).toBe('offset');
  });

  it('refuses a malformed clock move with 400 and leaves the clock alone', async () => {
    const t = testWorld();
    const res = await t.api.post('/_emulator/clock').send({ advance: '31 minutes' });
    expect(res.status).toBe(400);
    expect(t.world.clock.iso()).toBe('2026-11-21T10:00:00.000Z');
  });

  it('reset brings back the fixture world and the same keys', async () => {
    const t = testWorld();
    const sessions = () => ({ n: storedCount(t.world.db, 'sessions') });
    const seeded = sessions();
    const created = await t.experience('post', '/sessions').send({ scenario: 'won' });
    await t.api.post('/_emulator/reset').type('json').send().expect(200);
    expect(sessions()).toEqual(seeded);
    expect((await t.experience('get', '/session', t.env.sandbox_key, created.body.session_token)).status).toBe(401);
    expect((await t.api.get('/_emulator/env')).body).toEqual(JSON.parse(JSON.stringify(t.env)));
    expect((await t.experience('get', '/campaign')).status).toBe(200);
  });

  it('reset keeps the clock where it is, also across a restart', async () => {
    const t = testWorld();
    await t.api.post('/_emulator/clock').send({ advance: '2h' });
    await t.api.post('/_emulator/reset').type('json').send().expect(200);
    expect(t.world.clock.iso()).toBe('2026-11-21T12:00:00.000Z');
    expect(JSON.parse(getMeta(t.world.db, 'clock')!)).toMatchObject({ mode: 'frozen' });
  });

  it('refuses callers that are not on loopback and carry no control token', async () => {
    const t = testWorld();
    const { controlGuard } = await import('../emulator/control/guard.js');
    const app = express();
    app.use((req, _res, next) => {
      Object.defineProperty(req.socket, 'remoteAddress', { value: '10.1.2.3', configurable: true });
      next();
    });
    const rows = express.Router();
    const ctx = { ...t.world, controlState: createControlState(), resetLimits: () => {} };
    worldRows(endpointTable(rows, { ctx }), ctx);
    app.use('/_emulator', controlGuard({ controlToken: 'control-secret' }), rows);
    app.use(errorWriter(t.world.logger));
    expect((await request(app).get('/_emulator/health')).status).toBe(403);
    expect((await request(app).get('/_emulator/health').set('Authorization', 'Bearer wrong')).status).toBe(403);
    expect((await request(app).get('/_emulator/health').set('Authorization', 'Bearer control-secret')).status).toBe(200);
  });

  it('refuses a state change that is not JSON, so a page on another origin cannot reset the emulator', async () => {
    const t = testWorld();
    await t.experience('post', '/sessions').send({ scenario: 'won' });
    const sessions = () => ({ n: storedCount(t.world.db, 'sessions') });
    const before = sessions();
    const res = await t.api.post('/_emulator/reset').set('Content-Type', 'application/x-www-form-urlencoded').send('x=1');
    expect(res.status).toBe(415);
    expect(sessions()).toEqual(before);
    expect((await t.api.post('/_emulator/reset').type('json').send()).status).toBe(200);
  });
});
