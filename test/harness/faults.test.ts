/** The emulator's harness endpoints: faults, observed calls, issued secrets, terms edits, settling, packs. */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { VERIFIER, consentFor, issueCodeFor, productionSession, testWorld } from '../world.js';

const control = (t: ReturnType<typeof testWorld>) => ({
  post: (path: string, body: object) => t.api.post(`/_emulator${path}`).set('Content-Type', 'application/json').send(body),
  get: (path: string) => t.api.get(`/_emulator${path}`),
});

describe('faults', () => {
  test('the next entry answers 429 with Retry-After, then the service answers again', async () => {
    const t = testWorld();
    const session = await productionSession(t);
    const armed = await control(t).post('/faults', { next: { path: '/api/experience/v1/session/entry', status: 429, retry_after: 3, times: 1 } });
    expect(armed.status).toBe(201);
    const limited = await t.experience('post', '/session/entry', t.env.production_key, session).send(consentFor({ version: 'de-2026-03' }));
    expect([limited.status, limited.headers['retry-after'], limited.body.error]).toEqual([429, '3', 'rate_limited']);
    const entered = await t.experience('post', '/session/entry', t.env.production_key, session).send(consentFor({ version: 'de-2026-03' }));
    expect(entered.status).toBe(200);
  });

  test('a fault matched to a pack leaves other packs alone', async () => {
    const t = testWorld();
    const [won, lost] = [t.env.packs.find((pack) => pack.outcome === 'won')!.code, t.env.packs.find((pack) => pack.outcome === 'lost')!.code];
    await control(t).post('/faults', { next: { path: '/session/entry', status: 410, error: 'unavailable', match: { pack: lost } } });
    const other = await productionSession(t, { packCode: won });
    expect((await t.experience('post', '/session/entry', t.env.production_key, other).send(consentFor({ version: 'de-2026-03' }))).status).toBe(200);
    const matched = await productionSession(t, { packCode: lost, collectorEmail: 'jonas.bauer@example.test' });
    const refused = await t.experience('post', '/session/entry', t.env.production_key, matched).send(consentFor({ version: 'de-2026-03' }));
    expect([refused.status, refused.body.error]).toEqual([410, 'unavailable']);
  });

  test('drop cuts the connection of an exchange matched by its pack, before the code is used', async () => {
    const t = testWorld();
    const pack = t.env.packs.find((candidate) => candidate.outcome === 'lost')!.code;
    await control(t).post('/faults', { next: { path: '/sessions', method: 'POST', drop: true, match: { pack } } });
    const code = issueCodeFor(t, { packCode: pack });
    await expect(t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: VERIFIER })).rejects.toThrow(/socket hang up|ECONNRESET/);
    const retry = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: VERIFIER });
    expect(retry.status).toBe(201);
  });

  test('changes need JSON, and a fault needs a status, an error or drop', async () => {
    const t = testWorld();
    expect((await t.api.post('/_emulator/faults').type('form').send('next=1')).status).toBe(415);
    const refused = await control(t).post('/faults', { next: { path: '/session/entry' } });
    expect([refused.status, refused.body.error]).toEqual([400, 'invalid_request']);
  });

  test('clear removes armed faults and restores edited terms', async () => {
    const t = testWorld();
    await control(t).post('/faults', { next: { path: '/session', status: 401, times: 5 } });
    const edited = await control(t).post('/terms', { country: 'CH', terms: { version: 'edited-1', text: '<b>x</b>' } });
    expect(edited.body.terms).toMatchObject({ version: 'edited-1', text: '<b>x</b>', required: true });
    expect((await control(t).get('/terms')).body.by_country.CH.version).toBe('edited-1');
    expect((await control(t).post('/faults/clear', {})).body).toEqual({ cleared: 1, terms_restored: ['CH'] });
    expect((await control(t).get('/terms')).body.by_country.CH.version).toBe('ch-2026-03');
    expect((await control(t).get('/faults')).body.data).toEqual([]);
  });
});

describe('observed calls and secrets', () => {
  test('each call is observed with its pack, the code only as its SHA-256, a verdict on the verifier, and the answer', async () => {
    const t = testWorld();
    await control(t).get('/observed');
    const pack = t.env.packs.find((candidate) => candidate.outcome === 'won')!.code;
    const code = issueCodeFor(t, { packCode: pack });
    await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: VERIFIER });
    const { body } = await control(t).get(`/observed?pack=${pack}`);
    expect(body.data).toHaveLength(1);
    const [call] = body.data;
    expect(call).toMatchObject({ method: 'POST', path: '/sessions', environment: 'production', pack, status: 201, code_sha256: createHash('sha256').update(code).digest('hex') });
    expect(call.verifier).toEqual({ length: VERIFIER.length, unreserved: true, s256: createHash('sha256').update(VERIFIER).digest('base64url') });
    expect(call.answer).toMatchObject({ session_created: true, terms_version: 'de-2026-03' });
    expect(JSON.stringify(body)).not.toContain(code);
    expect(JSON.stringify(body)).not.toContain(VERIFIER);
    expect(JSON.stringify(body)).not.toMatch(/sess_/);
  });

  test('a failed exchange is tied to its pack through the code, and a verifier outside the alphabet is judged so', async () => {
    const t = testWorld();
    await control(t).get('/observed');
    const pack = t.env.packs.find((candidate) => candidate.outcome === 'lost')!.code;
    const code = issueCodeFor(t, { packCode: pack });
    const refused = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: `${VERIFIER}+/` });
    expect(refused.status).toBe(400);
    const [call] = (await control(t).get(`/observed?pack=${pack}`)).body.data;
    expect(call).toMatchObject({ status: 400, pack, verifier: { length: VERIFIER.length + 2, unreserved: false } });
  });

  test('nothing is observed until a tool reads the observed calls or arms a fault: until then the hook costs a flag test', async () => {
    const t = testWorld();
    await t.experience('get', '/campaign');
    const first = (await control(t).get('/observed')).body;
    expect([first.last, first.data]).toEqual([0, []]);
    await t.experience('get', '/campaign');
    const second = (await control(t).get('/observed')).body;
    expect(second.data).toEqual([expect.objectContaining({ seq: 1, method: 'GET', path: '/campaign', environment: 'sandbox', status: 200 })]);
  });

  test('a dropped connection is observed as dropped, with no status', async () => {
    const t = testWorld();
    const pack = t.env.packs.find((candidate) => candidate.outcome === 'lost')!.code;
    await control(t).post('/faults', { next: { path: '/sessions', method: 'POST', drop: true, match: { pack } } });
    await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: issueCodeFor(t, { packCode: pack }), code_verifier: VERIFIER }).catch(() => undefined);
    const [call] = (await control(t).get(`/observed?pack=${pack}`)).body.data;
    expect(call).toMatchObject({ status: 0, dropped: true, fault: 1, pack });
  });

  test('the secrets endpoint names the keys and the session tokens issued after a serial; no verifier is kept', async () => {
    const t = testWorld();
    await control(t).get('/observed');
    const before = (await control(t).get('/secrets')).body;
    const token = await productionSession(t);
    const after = (await control(t).get(`/secrets?after_session=${before.counters.session ?? 0}`)).body;
    expect(after.keys.map((key: { secret: string }) => key.secret)).toEqual(expect.arrayContaining([t.env.sandbox_key, t.env.production_key]));
    expect(after.session_tokens).toEqual([token]);
    expect(JSON.stringify(after)).not.toContain(VERIFIER);
  });
});

describe('world edits', () => {
  test('settle makes a pending delivery arrive at the next read', async () => {
    const t = testWorld();
    const pack = t.env.packs.find((candidate) => candidate.outcome === 'pending')!.code;
    const session = await productionSession(t, { packCode: pack });
    await t.experience('post', '/session/entry', t.env.production_key, session).send(consentFor({ version: 'de-2026-03' }));
    expect((await control(t).post('/deliveries/settle', { pack, outcome: 'failed' })).status).toBe(200);
    const read = await t.experience('get', '/session', t.env.production_key, session);
    expect([read.body.entry.state, read.body.delivery.state]).toEqual(['failed', 'failed']);
    expect((await control(t).post('/deliveries/settle', { pack, outcome: 'delivered' })).status).toBe(404);
  });

  test('packs lists unentered production packs, a hundred of each outcome at most, with the outcome of their draw', async () => {
    const t = testWorld();
    const { data } = (await control(t).get('/packs')).body as { data: Array<{ code: string; outcome: string; settles_as?: string }> };
    expect(data.length).toBeGreaterThan(150);
    expect(new Set(data.map((pack) => pack.outcome))).toEqual(new Set(['won', 'lost', 'pending', 'failed']));
    const session = await productionSession(t, { packCode: data[0]!.code });
    await t.experience('post', '/session/entry', t.env.production_key, session).send(consentFor({ version: 'de-2026-03' }));
    expect(((await control(t).get('/packs')).body.data as Array<{ code: string }>).map((pack) => pack.code)).not.toContain(data[0]!.code);
  });
});

describe('reset', () => {
  test('emulator reset clears what was observed, armed faults and edited terms; sequence numbers go on counting', async () => {
    const t = testWorld();
    await control(t).get('/observed');
    const pack = t.env.packs.find((candidate) => candidate.outcome === 'lost')!.code;
    await control(t).post('/faults', { next: { path: '/session/entry', status: 410, error: 'unavailable', match: { pack } } });
    await control(t).post('/terms', { country: 'CH', terms: { version: 'edited-1' } });
    await productionSession(t, { packCode: pack });
    const before = (await control(t).get('/observed')).body as { last: number; data: unknown[] };
    expect(before.data.length).toBeGreaterThan(0);

    expect((await control(t).post('/reset', {})).status).toBe(200);
    const after = (await control(t).get('/observed')).body as { last: number; data: unknown[] };
    expect(after.data).toEqual([]);
    expect((await control(t).get('/faults')).body.data).toEqual([]);
    // The reset world hands out the same pack: a call on it is new, numbered after the old ones.
    await productionSession(t, { packCode: pack });
    const fresh = (await control(t).get(`/observed?pack=${pack}`)).body as { data: Array<{ seq: number }> };
    expect(fresh.data.length).toBeGreaterThan(0);
    expect(fresh.data.every((call) => call.seq > before.last)).toBe(true);
    // Nothing edited is left to restore over the new world.
    expect((await control(t).post('/faults/clear', {})).body).toEqual({ cleared: 0, terms_restored: [] });
  });
});
