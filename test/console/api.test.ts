import { describe, expect, it } from 'vitest';
import type { Request } from 'express';
import { trustedCaller } from '../../emulator/control/guard.js';
import { hashSecret } from '../../emulator/domain/secrets.js';
import { updatePromotionContent } from '../../emulator/store/promotions.js';
import { type TestWorld, testWorld } from '../world.js';
import { storedRows } from '../support/stored.js';
import { coverSandbox } from '../support/sandbox-coverage.js';
import { CALLBACK } from '../journey/support.js';

const call = (t: TestWorld, method: 'get' | 'post', path: string, body?: object) => {
  const req = t.api[method](`/_emulator/console${path}`);
  return method === 'get' ? req : req.set('Content-Type', 'application/json').send(body ?? {});
};

const cover = (t: TestWorld, key = t.env.sandbox_key!, scenarios?: readonly string[]) =>
  coverSandbox((path, body, session) => t.experience('post', path, key, session).send(body), scenarios);

describe('console: agency keys', () => {
  it('lists keys masked, never their secrets', async () => {
    const t = testWorld();
    const res = await call(t, 'get', '/keys');
    expect(res.body.data).toEqual([
      expect.objectContaining({ id: 1, environment: 'sandbox', status: 'active', masked: expect.stringMatching(/^pk_sandbox_…/) }),
      expect.objectContaining({ id: 2, environment: 'production', status: 'active', masked: expect.stringMatching(/^pk_live_…/) }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain(t.env.sandbox_key);
  });

  it('creates a key whose secret is shown once, stored hashed, and works at once', async () => {
    const t = testWorld();
    const created = await call(t, 'post', '/keys', { environment: 'production' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ environment: 'production', status: 'active', secret: expect.stringMatching(/^pk_live_/) });
    const stored = storedRows<{ id: number; key_hash: string }>(t.world.db, 'agency_keys').find((key) => key.id === created.body.id)!;
    expect(stored.key_hash).toBe(hashSecret(created.body.secret));
    expect(JSON.stringify((await call(t, 'get', '/keys')).body)).not.toContain(created.body.secret);
    expect((await t.experience('get', '/campaign', created.body.secret)).status).toBe(200);
  });

  it('refuses an unknown environment with details', async () => {
    const res = await call(testWorld(), 'post', '/keys', { environment: 'staging' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: { environment: expect.any(Array) } });
  });

  it('rotates: the new key works before the old one is revoked, then the old one stops', async () => {
    const t = testWorld();
    const rotated = await call(t, 'post', '/keys/1/rotate');
    expect(rotated.status).toBe(201);
    expect(rotated.body).toMatchObject({ environment: 'sandbox', replaces: 1, secret: expect.any(String) });
    expect((await t.experience('get', '/campaign', rotated.body.secret)).status).toBe(200);
    expect((await t.experience('get', '/campaign', t.env.sandbox_key)).status).toBe(200);
    expect((await call(t, 'post', '/keys/1/revoke')).body.key).toMatchObject({ id: 1, status: 'revoked' });
    expect((await t.experience('get', '/campaign', t.env.sandbox_key)).body.error).toBe('key_revoked');
    expect((await t.experience('get', '/campaign', rotated.body.secret)).status).toBe(200);
  });

  it('answers 404 for a key it does not have and 409 when rotating a revoked key', async () => {
    const t = testWorld();
    expect((await call(t, 'post', '/keys/99/revoke')).status).toBe(404);
    await call(t, 'post', '/keys/1/revoke');
    expect((await call(t, 'post', '/keys/1/rotate')).status).toBe(409);
  });

  it('sends scans to the hosted page once the last production key is revoked, not before', async () => {
    const t = testWorld();
    const rotated = await call(t, 'post', '/keys/2/rotate');
    expect((await call(t, 'post', '/keys/2/revoke')).body.routing.reasons).not.toContain('no_production_key');
    const res = await call(t, 'post', `/keys/${rotated.body.id}/revoke`);
    expect(res.body.routing).toEqual({ to: 'hosted', reasons: expect.arrayContaining(['no_production_key']) });
  });
});

describe('console: callback URLs', () => {
  it.each([
    ['http://agency.example/callback', 'must use https'],
    ['https://agency.example/callback?x=1', 'must not have a query string'],
    ['https://agency.example/callback?', 'must not have a query string'],
    ['https://agency.example/callback#top', 'must not have a fragment'],
    ['/callback', 'is not an absolute URL'],
    ['https://user:pw@agency.example/callback', 'must not contain a user name'],
    ['ftp://agency.example/callback', 'must use https'],
  ])('refuses %s with the reason', async (url, reason) => {
    const res = await call(testWorld(), 'post', '/callbacks', { production: url });
    expect(res.status).toBe(400);
    expect(res.body.details.production[0]).toContain(reason);
  });

  it.each(['http://localhost:3000/callback', 'http://127.0.0.1:3000/callback', 'http://[::1]:3000/callback'])('accepts %s as the local-development exception, with a warning', async (url) => {
    const res = await call(testWorld(), 'post', '/callbacks', { production: url, preview: 'https://preview.agency.example/callback' });
    expect(res.status).toBe(200);
    expect(res.body.callbacks).toEqual({ production: url, preview: 'https://preview.agency.example/callback' });
    expect(res.body.warnings).toEqual([expect.stringContaining('local development')]);
  });

  it('clears the approval and the checklist when either URL changes, and not when nothing changed', async () => {
    const t = testWorld();
    await call(t, 'post', '/callbacks', { production: CALLBACK, preview: 'https://preview.agency.example/cb' });
    await cover(t);
    expect((await call(t, 'post', '/approve')).status).toBe(200);

    const same = await call(t, 'post', '/callbacks', { production: CALLBACK });
    expect(same.body).toMatchObject({ changed: false, approvalCleared: false });
    expect((await call(t, 'get', '/')).body.experience.approved_at).not.toBeNull();

    const preview = await call(t, 'post', '/callbacks', { production: CALLBACK, preview: 'https://preview.agency.example/other' });
    expect(preview.body).toMatchObject({ changed: true, approvalCleared: true });
    const overview = (await call(t, 'get', '/')).body;
    expect(overview.experience.approved_at).toBeNull();
    expect(overview.checklist.complete).toBe(false);
    expect(overview.checklist.missing).toHaveLength(12);
    expect(overview.history[0]).toMatchObject({ action: 'cleared' });
  });
});

describe('console: checklist and approval', () => {
  it('records, per scenario, whether this promotion\'s sandbox key created a session and submitted an entry', async () => {
    const t = testWorld();
    expect((await call(t, 'get', '/checklist')).body).toMatchObject({ complete: false, missing: expect.arrayContaining(['won: create a sandbox session']) });
    const session = await t.experience('post', '/sessions', t.env.sandbox_key).send({ scenario: 'won' });
    let checklist = (await call(t, 'get', '/checklist')).body;
    expect(checklist.items[0]).toEqual({ scenario: 'won', session_created: true, entry_submitted: false });
    await t.experience('post', '/session/entry', t.env.sandbox_key, session.body.session_token).send({});
    await cover(t, t.env.sandbox_key!, ['lost', 'pending', 'failed', 'ineligible']);
    checklist = (await call(t, 'get', '/checklist')).body;
    expect(checklist.missing).toEqual(['already_entered: create a sandbox session', 'already_entered: submit an entry']);
  });

  it('counts coverage made with a rotated sandbox key', async () => {
    const t = testWorld();
    await cover(t, t.env.sandbox_key!, ['won', 'lost', 'pending']);
    const rotated = await call(t, 'post', '/keys/1/rotate');
    await cover(t, rotated.body.secret, ['failed', 'ineligible', 'already_entered']);
    expect((await call(t, 'get', '/checklist')).body.complete).toBe(true);
  });

  it('refuses approval with the missing items while the checklist is incomplete', async () => {
    const t = testWorld();
    await call(t, 'post', '/callbacks', { production: CALLBACK });
    await cover(t, t.env.sandbox_key!, ['won', 'lost', 'pending', 'failed', 'ineligible']);
    const res = await call(t, 'post', '/approve');
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'approval_refused', details: { checklist: ['already_entered: create a sandbox session', 'already_entered: submit an entry'] } });
  });

  it('refuses approval while the promotion is not live or no production callback is set', async () => {
    const t = testWorld();
    await cover(t);
    updatePromotionContent(t.world.db, t.env.promotion_id, { ...t.world.fixture.promotion, status: 'draft' });
    const res = await call(t, 'post', '/approve');
    expect(res.status).toBe(409);
    expect(Object.keys(res.body.details).sort()).toEqual(['production_callback', 'promotion']);
  });

  it('approves once everything is in place and routes production scans to the agency', async () => {
    const t = testWorld();
    await call(t, 'post', '/callbacks', { production: CALLBACK });
    await cover(t);
    const res = await call(t, 'post', '/approve');
    expect(res.status).toBe(200);
    expect(res.body.approved_at).toBe(t.world.clock.iso());
    const overview = (await call(t, 'get', '/')).body;
    expect(overview.experience.routing).toEqual({ to: 'agency', callback: CALLBACK });
    expect(overview.history[0]).toMatchObject({ action: 'approved' });
  });

  it('pauses and resumes routing, keeping the approval', async () => {
    const t = testWorld();
    await call(t, 'post', '/callbacks', { production: CALLBACK });
    await cover(t);
    await call(t, 'post', '/approve');
    expect((await call(t, 'post', '/pause')).body.routing).toEqual({ to: 'hosted', reasons: ['routing_paused'] });
    expect((await call(t, 'post', '/resume')).body.routing).toEqual({ to: 'agency', callback: CALLBACK });
    expect((await call(t, 'get', '/')).body.history.map((event: { action: string }) => event.action)).toEqual(['resumed', 'paused', 'approved', 'cleared']);
  });
});

describe('console: access', () => {
  it('requires JSON for changes, so another website cannot post to it', async () => {
    const t = testWorld();
    const res = await t.api.post('/_emulator/console/approve').set('Content-Type', 'text/plain').send('x');
    expect(res.status).toBe(415);
  });

  it('answers loopback callers, or others presenting the control token', () => {
    const caller = (remoteAddress: string, authorization?: string) => ({ socket: { remoteAddress }, headers: {}, get: (name: string) => (name === 'authorization' ? authorization : undefined) }) as unknown as Request;
    expect(trustedCaller(caller('127.0.0.1'), {})).toBe(true);
    expect(trustedCaller(caller('10.0.0.5'), {})).toBe(false);
    expect(trustedCaller(caller('10.0.0.5', 'Bearer wrong'), { controlToken: 'secret-token' })).toBe(false);
    expect(trustedCaller(caller('10.0.0.5', 'Bearer secret-token'), { controlToken: 'secret-token' })).toBe(true);
  });

  it('shows the interaction log with keys masked and secrets redacted', async () => {
    const t = testWorld();
    await t.experience('post', '/sessions', t.env.sandbox_key).send({ scenario: 'won' });
    const res = await call(t, 'get', '/log');
    expect(res.body.data[0]).toMatchObject({ method: 'POST', path: '/api/experience/v1/sessions', status: 201, key: expect.stringMatching(/^pk_sandbox_…/), body: { scenario: 'won' } });
    expect(JSON.stringify(res.body)).not.toContain(t.env.sandbox_key);
  });
});
