/** A HEAD of a pack's page reads it and changes nothing: no scan, no request token. */
import { expect, it } from 'vitest';
import { countScans } from '../../emulator/store/scans.js';
import { storedCount } from '../support/stored.js';
import { approvedWorld, packCode, signedIn } from './support.js';

it('records no scan and issues no request token for HEAD /q/<code>, which GET still does', async () => {
  const t = await approvedWorld();
  const browser = await signedIn(t);
  const count = () => ({ scans: countScans(t.world.db), tokens: storedCount(t.world.db, 'request_tokens') });
  const before = count();
  const head = await browser.head(`/q/${packCode(t)}`);
  expect(head.status).toBe(200);
  expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(count()).toEqual(before);
  expect((await browser.get(`/q/${packCode(t)}`)).status).toBe(303);
  expect(count()).toEqual({ scans: before.scans + 1, tokens: before.tokens + 1 });
});
