import { describe, expect, it } from 'vitest';
import { snapshotTables } from '../../emulator/store/snapshot.js';
import { testWorld } from '../world.js';

describe('HTTP errors of the experience API', () => {
  it('answers a body over 100 KB with 413 and stores nothing', async () => {
    const t = testWorld();
    const sessions = () => snapshotTables(t.world.db, ['sessions']);
    const before = sessions();
    const res = await t.experience('post', '/sessions').set('Content-Type', 'application/json').send(JSON.stringify({ scenario: 'won', pad: 'x'.repeat(101 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('payload_too_large');
    expect(sessions()).toEqual(before);
  });

  it('answers malformed JSON with 400 invalid_request', async () => {
    const t = testWorld();
    const res = await t.experience('post', '/sessions').set('Content-Type', 'application/json').send('{"scenario": ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: { '(body)': ['must be valid JSON'] } });
  });

  it('answers a body that is not an object with 400 invalid_request', async () => {
    const t = testWorld();
    const res = await t.experience('post', '/sessions').set('Content-Type', 'application/json').send('[1,2]');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  it('answers a body nested deeper than 32 levels with 400 invalid_request, and keeps it out of the interaction log', async () => {
    const t = testWorld();
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const deep = await t.experience('post', '/sessions').set('Content-Type', 'application/json').send(nested(33));
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ error: 'invalid_request', details: { '(body)': ['must not nest deeper than 32 levels'] } });
    const allowed = await t.experience('post', '/sessions').set('Content-Type', 'application/json').send(nested(32));
    expect(allowed.body.details).not.toHaveProperty('(body)');
    const logged = await t.api.get('/_emulator/interactions');
    expect(logged.body.data.map((row: { status: number; body: unknown }) => [row.status, row.body === null])).toEqual([[400, true], [400, false]]);
  });

  it('answers a body that is not JSON with 415', async () => {
    const t = testWorld();
    const res = await t.experience('post', '/sessions').set('Content-Type', 'text/plain').send('scenario=won');
    expect(res.status).toBe(415);
    expect(res.body.error).toBe('unsupported_media_type');
  });

  it('answers an unknown route with 404 JSON', async () => {
    const t = testWorld();
    const res = await t.experience('get', '/prizes');
    expect(res.status).toBe(404);
    expect(res.type).toBe('application/json');
    expect(res.body).toMatchObject({ error: 'not_found', message: expect.stringContaining('GET /api/experience/v1/prizes') });
  });

  it('checks the key before anything else: a malformed body with no key is 401', async () => {
    const t = testWorld();
    const res = await t.experience('post', '/sessions', null).send({ scenario: 'jackpot' });
    expect(res.status).toBe(401);
  });

  it('checks the caller before the body: an entry with malformed JSON and no valid session is 401, on a key or a path without an endpoint alike', async () => {
    const t = testWorld();
    const entry = await t.experience('post', '/session/entry', t.env.sandbox_key, 'no-such-session').set('Content-Type', 'application/json').send('{"consent": ');
    expect([entry.status, entry.body.error]).toEqual([401, 'invalid_session']);
    const unknown = await t.experience('post', '/prizes', null).set('Content-Type', 'application/json').send('{"a": ');
    expect([unknown.status, unknown.body.error]).toEqual([401, 'invalid_key']);
  });

  it('never echoes a presented secret in an error', async () => {
    const t = testWorld();
    const res = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: 'sc_leak-me-not', code_verifier: 'verifier-leak-me-not-0123456789012345678901' });
    expect(res.text).not.toContain('leak-me-not');
  });
});
