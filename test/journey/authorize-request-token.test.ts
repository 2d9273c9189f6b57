/** The authorize page says what is wrong with a request token it refuses. */
import { expect, it } from 'vitest';
import { testWorld } from '../world.js';
import { signedIn } from './support.js';

const STATE = 'S'.repeat(43);
const CHALLENGE = 'C'.repeat(43);

it('says a request_token over 512 characters is too long, not missing', async () => {
  const t = testWorld();
  const browser = await signedIn(t);
  const query = (token: string) => new URLSearchParams({ request_token: token, state: STATE, code_challenge: CHALLENGE, code_challenge_method: 'S256' });
  const long = await browser.get(`/authorize?${query(`rt_${'x'.repeat(510)}`)}`);
  expect(long.status).toBe(400);
  expect(long.text).toContain('request_token is too long (at most 512 characters)');
  expect(long.text).not.toContain('missing');
  const missing = await browser.get(`/authorize?${query('')}`);
  expect(missing.text).toContain('request_token is missing');
});
