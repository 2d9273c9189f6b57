/** Every experience call is recorded once (control/recorder.ts): its interaction row and its observed call tell of the same call. */
import { describe, expect, it } from 'vitest';
import { type TestWorld, consentFor, productionSession, testWorld } from './world.js';

const control = (t: TestWorld) => ({
  post: (path: string, body: object) => t.api.post(`/_emulator${path}`).set('Content-Type', 'application/json').send(body),
  get: (path: string) => t.api.get(`/_emulator${path}`),
});

async function records(t: TestWorld) {
  const [interactions, observed] = await Promise.all([control(t).get('/interactions?limit=1000'), control(t).get('/observed')]);
  return { rows: interactions.body.data as Array<Record<string, unknown>>, calls: observed.body.data as Array<Record<string, unknown>> };
}

describe('the call recorder', () => {
  it('records an entry once for both readers, with the key and session it authenticated with', async () => {
    const t = testWorld();
    const session = await productionSession(t);
    await control(t).get('/observed');
    const entry = await t.experience('post', '/session/entry', t.env.production_key, session).send(consentFor({ version: 'de-2026-03' }));
    expect(entry.status).toBe(200);
    const { rows, calls } = await records(t);
    const row = rows.at(-1)!;
    const [call] = calls;
    expect(calls).toHaveLength(1);
    expect(row).toMatchObject({ method: 'POST', path: '/api/experience/v1/session/entry', status: 200, error: null, body: consentFor({ version: 'de-2026-03' }) });
    expect(call).toMatchObject({ method: 'POST', path: '/session/entry', status: 200, environment: 'production', key_id: row.key_id, session_id: row.session_id });
    expect(call!.answer).toMatchObject({ entry_state: entry.body.entry.state });
    expect(row.session_id).toEqual(expect.any(Number));
  });

  it('records a call a fault answered as the fault, with the key and session it matched on', async () => {
    const t = testWorld();
    const session = await productionSession(t);
    const armed = await control(t).post('/faults', { next: { path: '/session/entry', status: 429, retry_after: 3, match: { environment: 'production' } } });
    const limited = await t.experience('post', '/session/entry', t.env.production_key, session).send(consentFor({ version: 'de-2026-03' }));
    expect([limited.status, limited.body.error]).toEqual([429, 'rate_limited']);
    const { rows, calls } = await records(t);
    const row = rows.at(-1)!;
    expect(row).toMatchObject({ path: '/api/experience/v1/session/entry', status: 429, error: 'rate_limited', body: { injected_fault: armed.body.id } });
    expect(row.key_id).toEqual(expect.any(Number));
    expect(calls.at(-1)).toMatchObject({ fault: armed.body.id, status: 429, key_id: row.key_id, session_id: row.session_id, answer: { error: 'rate_limited' } });
  });

  it('records a call refused for its key with no key, in both', async () => {
    const t = testWorld();
    await control(t).get('/observed');
    const refused = await t.experience('get', '/campaign', 'not-a-key');
    expect(refused.status).toBe(401);
    const { rows, calls } = await records(t);
    expect(rows.at(-1)).toMatchObject({ path: '/api/experience/v1/campaign', status: 401, error: 'invalid_key', key_id: null, session_id: null });
    expect(calls.at(-1)).toMatchObject({ path: '/campaign', status: 401, key_id: null, environment: null, answer: { error: 'invalid_key' } });
  });
});
