import { describe, expect, it } from 'vitest';
import { storedRows } from './support/stored.js';
import { VERIFIER, consentFor, issueCodeFor, testWorld } from './world.js';

describe('logs and the interaction log keep secrets out', () => {
  it('no key, session token, code or verifier appears in the log or the interaction log', async () => {
    const t = testWorld();
    const sandbox = await t.experience('post', '/sessions').send({ scenario: 'won' });
    await t.experience('get', '/session', t.env.sandbox_key, sandbox.body.session_token);
    const code = issueCodeFor(t);
    const exchanged = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: VERIFIER });
    await t.experience('post', '/session/entry', t.env.production_key, exchanged.body.session_token).send(consentFor(exchanged.body.terms));
    await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: VERIFIER });
    await t.api.get(`/api/experience/v1/campaign?service_request=rt_in-the-url&state=${'s'.repeat(40)}`).set('Authorization', `Bearer ${t.env.sandbox_key}`);

    const log = t.logLines.join('');
    const interactions = JSON.stringify(storedRows(t.world.db, 'interactions'));
    expect(log).toContain('"path":"/api/experience/v1/session/entry"');
    for (const secret of [t.env.sandbox_key!, t.env.production_key!, sandbox.body.session_token, exchanged.body.session_token, code, VERIFIER, 'rt_in-the-url', 's'.repeat(40)]) {
      expect(log).not.toContain(secret);
      expect(interactions).not.toContain(secret);
    }
  });

  it('records every experience call: time, key id, session id, method, path, status, redacted body', async () => {
    const t = testWorld();
    await t.experience('get', '/campaign');
    await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: 'sc_x', code_verifier: VERIFIER });
    const res = await t.api.get('/_emulator/interactions');
    expect(res.body.data).toEqual([
      { id: 1, at: '2026-11-21T10:00:00.000Z', key_id: 1, session_id: null, method: 'GET', path: '/api/experience/v1/campaign', status: 200, error: null, body: null },
      { id: 2, at: '2026-11-21T10:00:00.000Z', key_id: 2, session_id: null, method: 'POST', path: '/api/experience/v1/sessions', status: 400, error: 'invalid_grant', body: { authorization_code: '[redacted]', code_verifier: '[redacted]' } },
    ]);
    expect((await t.api.get('/_emulator/interactions?after=1')).body.data.map((row: { id: number }) => row.id)).toEqual([2]);
  });

  it('logs every request of every area at info: method, path without its query, status and error code, nothing secret', async () => {
    const t = testWorld();
    await t.experience('get', '/campaign', 'pk_sandbox_not-a-key');
    await t.api.get(`/api/v1/brands/${t.env.brand_slug}/scans?limit=1`).set('Authorization', `Bearer ${t.env.reporting_token}`);
    await t.api.get('/api/v1/brands');
    await t.api.get(`/authorize?request_token=rt_in-the-url&state=${'s'.repeat(40)}`);
    await t.api.get(`/_emulator/sink/${t.env.sandbox_key}`);
    const requests = t.logLines.map((line) => JSON.parse(line) as { level: number; msg: string; request?: object }).filter((line) => line.request);
    expect(requests.every((line) => line.level === 30)).toBe(true);
    expect(requests.map((line) => line.msg)).toEqual([
      'GET /api/experience/v1/campaign 401 invalid_key',
      `GET /api/v1/brands/${t.env.brand_slug}/scans 200`,
      'GET /api/v1/brands 401 unauthorized',
      'GET /authorize 401 not_signed_in',
      expect.stringMatching(/^GET \/_emulator\/sink\/\[redacted\] 404 not_found$/),
    ]);
    expect(requests[0]).toMatchObject({ request: { method: 'GET', path: '/api/experience/v1/campaign', status: 401, error: 'invalid_key', ms: expect.any(Number) } });
    const log = t.logLines.join('');
    for (const secret of [t.env.sandbox_key!, t.env.reporting_token, 'rt_in-the-url', 's'.repeat(40)]) expect(log).not.toContain(secret);
    expect((await t.api.get('/_emulator/interactions')).body.data[0]).toMatchObject({ status: 401, error: 'invalid_key' });
  });
});
