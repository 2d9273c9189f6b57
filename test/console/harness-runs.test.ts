/**
 * A harness run's hold on the promotion, as the console's use cases keep it, on a wall clock the
 * test moves: a run under way refuses another, naming itself, while its lease runs; renewing starts
 * the lease again; a run whose lease ran out is put back by the next one, which names it; renewing
 * or ending a run no one holds is refused and changes nothing. Then the JSON API's wording of each.
 */
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../emulator/app.js';
import { createClock } from '../../emulator/clock.js';
import { overview } from '../../emulator/use-cases/console/reads.js';
import { setCallbacks } from '../../emulator/use-cases/console/callbacks.js';
import { LEASE_MS, endRun, openRun, renewRun } from '../../emulator/use-cases/console/harness-runs.js';
import { refused } from '../../emulator/wire-contract.js';
import { CALLBACK, approveIntegration } from '../journey/support.js';
import { FROZEN_AT, anotherPromotion, testWorld } from '../world.js';

const STARTED = new Date(FROZEN_AT).toISOString();

/** A promotion the brand approved, and a context on it (and its app) whose wall clock (`pass`) the test moves. */
async function approvedWorld() {
  const t = testWorld();
  let wall = FROZEN_AT;
  const ctx = { ...t.world, clock: createClock({ mode: 'frozen', frozenAt: FROZEN_AT }, () => wall) };
  await approveIntegration(t, CALLBACK);
  /** What the brand sees of the promotion: URLs, approval, checklist, history. */
  const brandView = () => {
    const { experience, checklist, history } = overview(ctx);
    return { callbacks: experience.callbacks, approved_at: experience.approved_at, checklist, history };
  };
  expect(brandView().approved_at).toBe(STARTED);
  /** What a run does: its own URL, which clears the approval and the checklist and writes a history line. */
  const changeAsARunDoes = () => expect(setCallbacks(ctx, { production: 'http://127.0.0.1:3000/callback' })).toMatchObject({ approvalCleared: true });
  return { t, ctx, api: request(createApp(ctx)), brandView, changeAsARunDoes, pass: (ms: number) => void (wall += ms) };
}

describe('console: a harness run holds the promotion', () => {
  it('refuses another run while its lease runs, naming itself; renewing starts the lease again; another promotion is free', async () => {
    const { t, ctx, brandView, pass } = await approvedWorld();
    const before = brandView();
    const first = openRun(ctx, { pid: 1, host: 'a' });
    expect(first).toEqual({ id: expect.any(String), recovered: null });
    const holder = { id: (first as { id: string }).id, pid: 1, host: 'a', started_at: STARTED };

    pass(LEASE_MS - 1);
    expect(openRun(ctx, { pid: 2, host: 'b' })).toEqual(refused({ ...holder, lease_left_ms: 1 }));
    expect(openRun(ctx, { pid: 2, host: 'b', replaces: 'another-run' })).toEqual(refused({ ...holder, lease_left_ms: 1 }));
    expect(renewRun(ctx, holder.id)).toEqual({ renewed: true });
    pass(LEASE_MS - 1);
    expect(openRun(ctx, { pid: 2, host: 'b' })).toEqual(refused({ ...holder, lease_left_ms: 1 }));
    expect(brandView()).toEqual(before);

    const other = anotherPromotion(t, { slug: 'other', name: 'Other' });
    expect(openRun(ctx, { pid: 2, host: 'b' }, other)).toEqual({ id: expect.any(String), recovered: null });
  });

  it('puts back what a run found once its lease ran out, or at once when the next run replaces it, and says which run it was', async () => {
    const { ctx, brandView, changeAsARunDoes, pass } = await approvedWorld();
    const before = brandView();
    const killed = openRun(ctx, { pid: 1, host: 'a' }) as { id: string };
    changeAsARunDoes();
    expect(brandView()).not.toEqual(before);

    pass(LEASE_MS);
    const next = openRun(ctx, { pid: 2, host: 'b' }) as { id: string };
    expect(next).toEqual({ id: expect.any(String), recovered: { id: killed.id, pid: 1, host: 'a', started_at: STARTED, lease_left_ms: 0 } });
    expect(brandView()).toEqual(before);
    expect(endRun(ctx, killed.id)).toEqual(refused('unknown_run'));

    changeAsARunDoes();
    const replacing = openRun(ctx, { pid: 3, host: 'c', replaces: next.id }) as { id: string };
    expect(replacing.id).not.toBe(next.id);
    expect(replacing).toMatchObject({ recovered: { id: next.id, pid: 2, host: 'b', lease_left_ms: LEASE_MS } });
    expect(brandView()).toEqual(before);
  });

  it('refuses to renew or end a run no one holds, changing nothing; an ended run is gone', async () => {
    const { ctx, brandView, changeAsARunDoes } = await approvedWorld();
    const before = brandView();
    expect(renewRun(ctx, 'no-such-run')).toEqual(refused('unknown_run'));
    expect(endRun(ctx, 'no-such-run')).toEqual(refused('unknown_run'));
    const run = openRun(ctx, { pid: 1, host: 'a' }) as { id: string };
    changeAsARunDoes();
    expect(endRun(ctx, 'no-such-run')).toEqual(refused('unknown_run'));
    expect(brandView()).not.toEqual(before);

    expect(endRun(ctx, run.id)).toEqual({ restored: true });
    expect(brandView()).toEqual(before);
    expect(endRun(ctx, run.id)).toEqual(refused('unknown_run'));
    expect(renewRun(ctx, run.id)).toEqual(refused('unknown_run'));
  });

  it('is worded by the JSON API: 201 with the run, 409 harness_run_active naming the holder, 404 for a run it does not know', async () => {
    const { api, pass } = await approvedWorld();
    const post = (path: string, body: object) => api.post(`/_emulator/console${path}`).set('Content-Type', 'application/json').send(body);
    const opened = await post('/harness-runs', { pid: 7, host: 'build-1' });
    expect(opened.status).toBe(201);
    expect(opened.body).toEqual({ id: expect.any(String), recovered: null });

    pass(LEASE_MS - 1_001);
    const active = await post('/harness-runs', { pid: 8, host: 'build-2' });
    expect(active.status).toBe(409);
    expect(active.body).toEqual({
      error: 'harness_run_active',
      message: `Another harness run (pid 7 on build-1, started ${STARTED}) is under way on promotion spring-instant-win; its lease ends in 2 s unless it renews it.`,
      details: { id: [opened.body.id], pid: ['7'], host: ['build-1'], started_at: [STARTED] },
    });

    for (const path of ['/harness-runs/no-such-run/renew', '/harness-runs/no-such-run/end']) {
      const unknown = await post(path, {});
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'not_found', message: 'No harness run under way has that id.' });
    }
    expect((await post(`/harness-runs/${opened.body.id}/renew`, {})).body).toEqual({ renewed: true });
    expect((await post(`/harness-runs/${opened.body.id}/end`, {})).body).toEqual({ restored: true });
  });
});
