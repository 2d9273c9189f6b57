import { describe, expect, it } from 'vitest';
import { VERIFIER, issueCodeFor, promotionEnv, testWorld } from '../world.js';

describe('production code exchange with PKCE (spec §4.3 step 6, §5 rule 4)', () => {
  it('exchanges a fresh code and the right verifier for a session', async () => {
    const t = testWorld();
    const res = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: issueCodeFor(t), code_verifier: VERIFIER });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ session_token: expect.stringMatching(/^sess_/), sandbox: false, eligibility: { eligible: true, country: 'DE' } });
    expect(res.body.terms.version).toBe('de-2026-03');
  });

  it('refuses a wrong verifier with 400 invalid_grant', async () => {
    const t = testWorld();
    const res = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: issueCodeFor(t), code_verifier: `${VERIFIER}x` });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
    expect(res.body.message).toMatch(/code_verifier does not match/);
  });

  it('refuses a plain challenge: a verifier equal to the challenge does not pass', async () => {
    const t = testWorld();
    const plain = 'p'.repeat(43);
    const code = issueCodeFor(t, { verifier: plain });
    const res = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: 'q'.repeat(43) });
    expect(res.status).toBe(400);
  });

  it('consumes a code on a failed attempt: the right verifier afterwards is refused too', async () => {
    const t = testWorld();
    const code = issueCodeFor(t);
    await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: `${VERIFIER}x` });
    const retry = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: VERIFIER });
    expect(retry.status).toBe(400);
    expect(retry.body.error).toBe('invalid_grant');
  });

  it('refuses a reused code and revokes the session the code produced', async () => {
    const t = testWorld();
    const code = issueCodeFor(t);
    const first = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: VERIFIER });
    const again = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: VERIFIER });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid_grant', message: expect.stringMatching(/already used/) });
    const read = await t.experience('get', '/session', t.env.production_key, first.body.session_token);
    expect(read.status).toBe(401);
    expect(read.body.error).toBe('invalid_session');
  });

  it('accepts a code at 4:59 and refuses it after 5 minutes', async () => {
    const t = testWorld();
    const fresh = issueCodeFor(t);
    const stale = issueCodeFor(t, { packCode: t.env.packs[1]!.code });
    t.world.clock.advance(299_000);
    expect((await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: fresh, code_verifier: VERIFIER })).status).toBe(201);
    t.world.clock.advance(1_000);
    const res = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: stale, code_verifier: VERIFIER });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/expired/);
  });

  it('refuses an unknown code', async () => {
    const t = testWorld();
    const res = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: 'sc_made-up', code_verifier: VERIFIER });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('refuses a code issued for another promotion', async () => {
    const t = testWorld();
    // Our pack, but a code bound to another promotion of the world.
    const ourPack = t.env.packs.find((pack) => pack.outcome === 'won')!.code;
    const code = issueCodeFor(t, { promotion: promotionEnv(t, 'alpenmilch-summer-white'), packCode: ourPack });
    const res = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: VERIFIER });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/another promotion/);
  });

  it('refuses a sandbox body ({scenario}) on a production key with 400 invalid_request', async () => {
    const t = testWorld();
    const res = await t.experience('post', '/sessions', t.env.production_key).send({ scenario: 'won' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(Object.keys(res.body.details)).toEqual(expect.arrayContaining(['authorization_code', 'code_verifier', 'scenario']));
  });

  it('refuses non-string code or verifier with 400 invalid_request', async () => {
    const t = testWorld();
    const res = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: 42, code_verifier: ['x'] });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details).sort()).toEqual(['authorization_code', 'code_verifier']);
  });
});
