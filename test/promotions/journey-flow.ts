/**
 * The whole production journey of spec §4.3 over HTTP, against an in-process app or a listening
 * emulator: sign in, scan, the hand-off with `service_request`, authorize and Continue, the
 * backend's exchange with PKCE and the entry with consent.
 */
import request from 'supertest';
import { s256 } from '../../emulator/domain/pkce.js';
import { findCollectorByEmail } from '../../emulator/store/collectors.js';
import type { Db } from '../../emulator/store/db.js';
import { csrfOf } from '../journey/support.js';
import { type PromotionEnv, VERIFIER, consentFor } from '../world.js';

const STATE = 'S'.repeat(20) + '_state-0123456789abcdef';

type App = Parameters<typeof request>[0];

export interface JourneyEntry {
  sessionToken: string;
  terms: { version: string };
  entry: { status: number; body: { entry: { id: number; state: string; codes: string[]; redemption_url: string | null; prize: { reward_type: string } | null }; error?: string } };
}

export async function journeyEntry(target: { app: App | string; db: Db }, promotion: PromotionEnv, packCode: string, email = 'anna.weber@example.test'): Promise<JourneyEntry> {
  const browser = request.agent(target.app);
  const { id } = findCollectorByEmail(target.db, email)!;
  const form = await browser.get('/sign-in');
  await browser.post('/sign-in').type('form').send({ csrf: csrfOf(form.text), collector_id: id, next: '/promotions' }).expect(303);
  const scan = await browser.get(`/q/${packCode}`).expect(303);
  const requestToken = new URL(scan.headers.location!).searchParams.get('service_request');
  if (!requestToken) throw new Error(`the scan did not go to the agency: ${scan.headers.location}`);
  const authorize = { request_token: requestToken, state: STATE, code_challenge: s256(VERIFIER), code_challenge_method: 'S256' };
  const page = await browser.get(`/authorize?${new URLSearchParams(authorize)}`).expect(200);
  const continued = await browser.post('/authorize').type('form').send({ csrf: csrfOf(page.text), ...authorize }).expect(303);
  const code = new URL(continued.headers.location!).searchParams.get('service_code')!;
  const api = request(target.app);
  const auth = { Authorization: `Bearer ${promotion.production_key}` };
  const exchanged = await api.post('/api/experience/v1/sessions').set(auth).send({ authorization_code: code, code_verifier: VERIFIER }).expect(201);
  const sessionToken = exchanged.body.session_token as string;
  const entry = await api.post('/api/experience/v1/session/entry').set(auth).set('X-Service-Session', sessionToken).send(consentFor(exchanged.body.terms));
  return { sessionToken, terms: exchanged.body.terms, entry };
}
