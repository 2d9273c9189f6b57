/** A code exchanged again, after a wrong verifier or after a session, is refused with what happened to the code. */
import { expect, it } from 'vitest';
import { packCode } from '../journey/support.js';
import { VERIFIER, issueCodeFor, testWorld } from '../world.js';

it('after a wrong verifier, a retry hears that the code was used, and no word of a session it never produced', async () => {
  const t = testWorld();
  const exchange = (code: string, verifier: string) => t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: verifier });
  const code = issueCodeFor(t);
  expect((await exchange(code, `${VERIFIER}-wrong`)).status).toBe(400);
  const retry = await exchange(code, VERIFIER);
  expect(retry.status).toBe(400);
  expect(retry.body).toEqual({ error: 'invalid_grant', message: expect.stringContaining('already used') });
  expect(retry.body.message).not.toMatch(/session/i);

  const good = issueCodeFor(t, { packCode: packCode(t, 'lost') });
  expect((await exchange(good, VERIFIER)).status).toBe(201);
  const replay = await exchange(good, VERIFIER);
  expect(replay.body.message).toContain('the session it produced is revoked');
});
