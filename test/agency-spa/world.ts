/**
 * Builders for the single-page agency's tests: an emulator on a frozen clock, a recording spy in
 * front of it, the agency on its own movable clock, approved, and journey steps as the app's
 * script takes them (navigations, then JSON calls).
 */
import { Writable } from 'node:stream';
import { expect, onTestFinished, test } from 'vitest';
import { approve, setCallbacks } from '../../emulator/console/lifecycle.js';
import { type Limits, SPEC_LIMITS } from '../../emulator/context.js';
import { envValues } from '../../emulator/control/env.js';
import type { Fixture } from '../../emulator/fixture.js';
import { createLogger } from '../../emulator/logger.js';
import { startServer } from '../../emulator/server.js';
import type { SpaDefectName } from '../../fixtures/agency-spa/defects.js';
import { createSpaLogger } from '../../fixtures/agency-spa/log.js';
import { startSpaAgency } from '../../fixtures/agency-spa/server.js';
import { formOf } from '../agency/test-browser.js';
import { startServiceSpy } from '../agency/service-spy.js';
import { coverSandbox, fetchPost } from '../support/sandbox-coverage.js';
import { DEFAULT_FIXTURE, FROZEN_AT } from '../world.js';
import type { Call, SpaClient } from './spa-client.js';

export interface SpaWorldOptions {
  defects?: SpaDefectName[];
  fixture?: (fixture: Fixture) => Fixture;
  limits?: Partial<Limits>;
  /** The agency's clock: moved by the test (default), or the system's for a real browser's timers. */
  agencyClock?: 'manual' | 'real';
  /** Default true: callbacks set to the agency, sandbox covered, approved; scans route to the agency. */
  approved?: boolean;
}

/** Anna signs in from Germany, whose terms set a minimum age of 18 (version de-2026-03). */
export const ANNA = 'anna.weber@example.test';
/** Marco signs in from Switzerland, whose terms set no minimum age. */
export const MARCO = 'marco.rossi@example.test';

/** `onFinished` registers the teardown; concurrent tests pass their context's `onTestFinished`. */
export async function spaWorld(options: SpaWorldOptions = {}, onFinished: (teardown: () => Promise<void>) => void = onTestFinished) {
  const fixture = options.fixture ? options.fixture(structuredClone(DEFAULT_FIXTURE)) : DEFAULT_FIXTURE;
  const emulator = await startServer({
    fixture, data: ':memory:', host: '127.0.0.1', port: 0, clock: { mode: 'frozen', frozenAt: FROZEN_AT },
    logger: createLogger('emulator', { level: 'silent' }), config: { limits: { ...SPEC_LIMITS, ...options.limits } },
  });
  const spy = await startServiceSpy(emulator.baseUrl);
  const env = envValues(emulator.world);
  const logLines: string[] = [];
  const sink = new Writable({ write(chunk, _encoding, done) { logLines.push(String(chunk)); done(); } });
  const clock = { at: Date.now() };
  const agency = await startSpaAgency({
    port: 0, emulatorUrl: spy.url, defects: options.defects ?? [], keys: { sandbox: env.sandbox_key, production: env.production_key },
    logger: createSpaLogger(sink), now: options.agencyClock === 'real' ? Date.now : () => clock.at,
  });
  onFinished(async () => {
    await agency.close();
    await spy.close();
    await emulator.close();
  });
  if (options.approved !== false) {
    const change = setCallbacks(emulator.world, { production: agency.callbackUrl, preview: agency.previewUrl });
    if (!change.ok) throw new Error(JSON.stringify(change.problems));
    await coverSandbox(fetchPost(emulator.baseUrl, env.sandbox_key!));
    const approval = approve(emulator.world);
    if (!approval.ok) throw new Error(`not approved: ${JSON.stringify(approval.missing)}`);
  }
  return {
    emulator, world: emulator.world, env, spy, agency, logLines,
    /** An address of the agency, e.g. `w.at('/api/zustand')`. */
    at: (path: string) => `${agency.url}${path}`,
    /** Moves the agency's clock only; `world.clock` is the emulator's. */
    advanceAgency: (ms: number) => void (clock.at += ms),
    /** Both clocks, as real time passing would. */
    advance: (ms: number) => {
      clock.at += ms;
      emulator.world.clock.advance(ms);
    },
  };
}

export type SpaWorld = Awaited<ReturnType<typeof spaWorld>>;

/** A rule of the spec: the agency keeps it, and its defect switch breaks it (the observation differs as stated). */
export function spaRule<T extends object>(spec: {
  defect: SpaDefectName;
  title: string;
  world?: Omit<SpaWorldOptions, 'defects'>;
  observe: (w: SpaWorld) => Promise<T>;
  holds: { [K in keyof T]?: unknown };
  broken: { [K in keyof T]?: unknown };
}): void {
  test(spec.title, async () => {
    expect(await spec.observe(await spaWorld(spec.world))).toMatchObject(spec.holds);
  });
  test(`--defect ${spec.defect} breaks it`, async () => {
    expect(await spec.observe(await spaWorld({ ...spec.world, defects: [spec.defect] }))).toMatchObject(spec.broken);
  });
}

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

/** The session tokens the emulator issued, as the spy saw them come back. */
export function issuedSessionTokens(w: SpaWorld): string[] {
  return w.spy.calls.flatMap((call) => (typeof call.response?.session_token === 'string' ? [call.response.session_token] : []));
}
