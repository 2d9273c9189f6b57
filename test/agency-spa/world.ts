/**
 * Builders for the single-page agency's tests: an emulator on a frozen clock, a recording spy in
 * front of it, the agency on its own movable clock, approved, and journey steps as the app's
 * script takes them (navigations, then JSON calls).
 */
import { onTestFinished } from 'vitest';
import type { SpaDefectName } from '../../fixtures/agency-spa/defects.js';
import { createSpaLogger } from '../../fixtures/agency-spa/log.js';
import { type SpaAgencyOptions, startSpaAgency } from '../../fixtures/agency-spa/server.js';
import { formOf } from '../agency/test-browser.js';
import { type AgencyWorldOptions, type Teardown, agencyWorldWith, rulesOf } from '../support/agency-world.js';
import type { Call, SpaClient } from './spa-client.js';

/** `build`: how the app is built where the rules leave it open (server.ts `confirmStep`). */
export type SpaWorldOptions = AgencyWorldOptions<SpaDefectName> & { build?: Pick<SpaAgencyOptions, 'confirmStep'> };

/** Anna signs in from Germany, whose terms set a minimum age of 18 (version de-2026-03). */
export const ANNA = 'anna.weber@example.test';
/** Marco signs in from Switzerland, whose terms set no minimum age. */
export const MARCO = 'marco.rossi@example.test';

/** `onFinished` registers the teardown; concurrent tests pass their context's `onTestFinished`. */
export async function spaWorld(options: SpaWorldOptions = {}, onFinished: Teardown = onTestFinished) {
  const w = await agencyWorldWith((start) => startSpaAgency({ ...start, ...options.build }), createSpaLogger, options, onFinished);
  return {
    ...w,
    /** An address of the agency, e.g. `w.at('/api/zustand')`. */
    at: (path: string) => `${w.agency.url}${path}`,
  };
}

export type SpaWorld = Awaited<ReturnType<typeof spaWorld>>;

/** A rule of the spec: the agency keeps it, and its defect switch breaks it (the observation differs as stated). */
export const spaRule = rulesOf((options: SpaWorldOptions) => spaWorld(options));

export interface JourneyOptions {
  email?: string;
  outcome?: string;
  /** Which pack of that outcome (0 = the first). */
  pack?: number;
}

export function packOf(w: SpaWorld, outcome = 'won', index = 0): string {
  const code = w.env.packs.filter((pack) => pack.outcome === outcome)[index]?.code;
  if (!code) throw new Error(`no ${outcome} pack #${index}`);
  return code;
}

/** Sign in at the service and scan: the service routes to the callback, which sends the browser on to authorize. */
export async function scan(w: SpaWorld, browser: SpaClient, options: JourneyOptions = {}) {
  const signIn = await browser.open(`${w.emulator.baseUrl}/sign-in`);
  const collector = w.env.collectors.find((candidate) => candidate.email === (options.email ?? ANNA))!;
  const signedIn = await browser.request('POST', `${w.emulator.baseUrl}/sign-in`, { form: { ...formOf(signIn.text, '/sign-in'), collector_id: String(collector.id), next: '/promotions' } });
  if (signedIn.status !== 303) throw new Error(`sign-in failed: ${signedIn.status}`);
  const page = await browser.open(`${w.emulator.baseUrl}/q/${packOf(w, options.outcome, options.pack)}`);
  if (!page.url.startsWith(`${w.emulator.baseUrl}/authorize?`)) throw new Error(`not on the authorize page: ${page.status} ${page.url}`);
  return page;
}

/** Scan and Continue: the service's redirect back to the callback, not yet followed. */
export async function callbackUrl(w: SpaWorld, browser: SpaClient, options: JourneyOptions = {}): Promise<string> {
  const page = await scan(w, browser, options);
  const hop = await browser.request('POST', new URL('/authorize', page.url).href, { form: formOf(page.text, '/authorize') });
  if (hop.status !== 303) throw new Error(`authorize failed: ${hop.status}`);
  return hop.headers.get('location')!;
}

/** The whole production journey up to the app's first view after the callback: the consent form. */
export async function toConsent(w: SpaWorld, browser: SpaClient, options: JourneyOptions = {}): Promise<Call> {
  const landed = await browser.open(await callbackUrl(w, browser, options));
  if (landed.url !== w.at('/teilnahme')) throw new Error(`the callback landed on ${landed.url} (${landed.status})`);
  return browser.api('GET', w.at('/api/zustand'));
}

export const ACCEPT = { agb: true, alter: true, newsletter: false };

export function enter(w: SpaWorld, browser: SpaClient, consent: Record<string, unknown> = ACCEPT): Promise<Call> {
  return browser.api('POST', w.at('/api/teilnahme'), consent);
}

/** A sandbox scenario as the preview page runs it. */
export async function preview(w: SpaWorld, browser: SpaClient, scenario: string): Promise<Call> {
  await browser.api('GET', w.at('/api/zustand'));
  return browser.api('POST', w.at('/api/vorschau'), { szenario: scenario });
}

export const entries = (w: SpaWorld) => w.spy.of('POST', '/session/entry');
/** The code exchanges the agency sent the service. */
export const exchanges = (w: SpaWorld) => w.spy.of('POST', '/sessions');

export { issuedSessionTokens } from '../support/agency-world.js';
