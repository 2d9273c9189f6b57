/** Builders for journey tests over supertest: a signed-in browser, an approved integration. */
import request from 'supertest';
import { approve } from '../../emulator/use-cases/console/approval.js';
import { setCallbacks } from '../../emulator/use-cases/console/callbacks.js';
import { isRefused } from '../../emulator/wire-contract.js';
import { findCollectorByEmail } from '../../emulator/store/collectors.js';
import type { Fixture } from '../../emulator/fixture.js';
import { type PromotionEnv, type TestWorld, testWorld } from '../world.js';
import { coverSandbox } from '../support/sandbox-coverage.js';

export const CALLBACK = 'https://agency.example/callback';
export const MOBILE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';

export function csrfOf(page: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('no csrf field on the page');
  return match[1]!;
}

export function collectorId(t: TestWorld, email: string): number {
  return findCollectorByEmail(t.world.db, email)!.id;
}

/** A browser (cookie jar) signed in as the collector with this email. */
export async function signedIn(t: TestWorld, email = 'anna.weber@example.test', userAgent = MOBILE_UA) {
  const browser = request.agent(t.app).set('User-Agent', userAgent);
  const form = await browser.get('/sign-in');
  const res = await browser.post('/sign-in').type('form').send({ csrf: csrfOf(form.text), collector_id: collectorId(t, email), next: '/promotions' });
  if (res.status !== 303) throw new Error(`sign-in failed: ${res.status}`);
  return browser;
}

export type Browser = Awaited<ReturnType<typeof signedIn>>;

/** Callback set, six sandbox scenarios covered, approved: production scans now route to the agency. */
export async function approvedWorld(options: { fixture?: (fixture: Fixture) => Fixture; callback?: string } = {}): Promise<TestWorld> {
  const t = testWorld({ fixture: options.fixture });
  await approveIntegration(t, options.callback ?? CALLBACK);
  return t;
}

/** The brand's whole lifecycle for one promotion (the default one unless given). */
export async function approveIntegration(t: TestWorld, callback: string, promotion?: PromotionEnv): Promise<void> {
  const change = setCallbacks(t.world, { production: callback }, promotion?.id);
  if (isRefused(change)) throw new Error(JSON.stringify(change.refused));
  await coverSandbox((path, body, session) => t.experience('post', path, (promotion ?? t.env).sandbox_key, session).send(body));
  const approval = approve(t.world, promotion?.id);
  if (isRefused(approval)) throw new Error(`not approved: ${JSON.stringify(approval.refused)}`);
}

export function packCode(t: TestWorld, outcome = 'won'): string {
  return t.env.packs.find((pack) => pack.outcome === outcome)!.code;
}

export function serviceRequestOf(location: string): string {
  return new URL(location).searchParams.get('service_request')!;
}
