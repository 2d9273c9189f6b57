/**
 * Builders for the reference agency's tests: an emulator on a frozen clock, a recording spy in
 * front of it, the agency on its own movable clock, and journey steps through the real pages.
 */
import { onTestFinished } from 'vitest';
import type { DefectName, Shape } from '../../fixtures/agency-reference/defects.js';
import { createAgencyLogger } from '../../fixtures/agency-reference/logger.js';
import { startAgency } from '../../fixtures/agency-reference/server.js';
import { type AgencyWorldOptions, type Teardown, agencyWorldWith, rulesOf } from '../support/agency-world.js';
import { type Hop, type TestBrowser, formOf } from './test-browser.js';

/** `shape`: how the agency is built (the shape a defect needs, defects.ts `build`). */
export type WorldOptions = AgencyWorldOptions<DefectName> & { shape?: Shape };

/** Anna signs in from Germany, whose terms set a minimum age of 18. */
export const ANNA = 'anna.weber@example.test';

/** `onFinished` registers the teardown; concurrent tests pass their context's `onTestFinished`. */
export function agencyWorld(options: WorldOptions = {}, onFinished: Teardown = onTestFinished) {
  return agencyWorldWith((start) => startAgency({ ...start, ...options.shape }), createAgencyLogger, options, onFinished);
}

export type AgencyWorld = Awaited<ReturnType<typeof agencyWorld>>;

/** A rule of the spec: the reference agency keeps it, and its defect switch breaks it. */
export const rule = rulesOf((options: WorldOptions) => agencyWorld(options));

/** The entries the agency sent the service. */
export const entries = (w: AgencyWorld) => w.spy.of('POST', '/session/entry');

export function packOf(w: AgencyWorld, outcome = 'won', index = 0): string {
  const packs = w.env.packs.filter((pack) => pack.outcome === outcome);
  if (!packs[index]) throw new Error(`no ${outcome} pack #${index}`);
  return packs[index].code;
}

export async function signIn(w: AgencyWorld, browser: TestBrowser, email = ANNA): Promise<void> {
  const page = await browser.open(`${w.emulator.baseUrl}/sign-in`);
  const collector = w.env.collectors.find((candidate) => candidate.email === email)!;
  const hop = await browser.request('POST', `${w.emulator.baseUrl}/sign-in`, { ...formOf(page.text, '/sign-in'), collector_id: String(collector.id), next: '/promotions' });
  if (hop.status !== 303) throw new Error(`sign-in failed: ${hop.status}`);
}

export interface JourneyOptions {
  email?: string;
  outcome?: string;
  pack?: number;
}

/** Sign in, scan: the emulator routes to the agency, which sends the browser to the authorize page. */
export async function toAuthorize(w: AgencyWorld, browser: TestBrowser, options: JourneyOptions = {}): Promise<Hop> {
  await signIn(w, browser, options.email);
  const page = await browser.open(`${w.emulator.baseUrl}/q/${packOf(w, options.outcome, options.pack)}`);
  if (page.status !== 200 || !page.url.startsWith(`${w.emulator.baseUrl}/authorize?`)) throw new Error(`not on the authorize page: ${page.status} ${page.url}`);
  return page;
}

/** Sign in, scan: the query the agency redirects the browser to the authorize page with (not followed). */
export async function authorizeQuery(w: AgencyWorld, browser: TestBrowser, options: JourneyOptions = {}): Promise<Record<string, string>> {
  await signIn(w, browser, options.email);
  const routed = await browser.request('GET', `${w.emulator.baseUrl}/q/${packOf(w, options.outcome, options.pack)}`);
  const begun = await browser.request('GET', routed.headers.get('location')!);
  if (begun.status !== 303) throw new Error(`the callback did not redirect: ${begun.status}`);
  return Object.fromEntries(new URL(begun.headers.get('location')!).searchParams);
}

/** The Continue button: the emulator's redirect back to the callback with service_code and state, not yet followed. */
export async function authorize(browser: TestBrowser, page: Hop): Promise<string> {
  const hop = await browser.request('POST', new URL('/authorize', page.url).href, formOf(page.text, '/authorize'));
  if (hop.status !== 303) throw new Error(`authorize failed: ${hop.status} ${hop.text.slice(0, 300)}`);
  return hop.headers.get('location')!;
}

export async function callbackUrl(w: AgencyWorld, browser: TestBrowser, options: JourneyOptions = {}): Promise<string> {
  return authorize(browser, await toAuthorize(w, browser, options));
}

/** The whole production journey up to the agency's page after the callback: the consent form. */
export async function toConsent(w: AgencyWorld, browser: TestBrowser, options: JourneyOptions = {}): Promise<Hop> {
  return browser.open(await callbackUrl(w, browser, options));
}

export const ACCEPT = { accept_terms: 'yes', confirm_age: 'yes' };

export async function enter(browser: TestBrowser, consent: Hop, fields: Record<string, string> = ACCEPT): Promise<Hop> {
  return browser.submit(consent, '/entry', fields);
}

/** Every response the browser saw, as one searchable text: URLs, headers (cookies included) and bodies. */
export function everythingSeen(browser: TestBrowser): string {
  return browser.hops.map((hop) => [hop.url, ...[...hop.headers].map(([name, value]) => `${name}: ${value}`), hop.text].join('\n')).join('\n');
}

export { issuedSessionTokens } from '../support/agency-world.js';
