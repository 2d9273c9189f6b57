/**
 * Builders for the reference agency's tests: an emulator on a frozen clock, a recording spy in
 * front of it, the agency on its own movable clock, and journey steps through the real pages.
 */
import { Writable } from 'node:stream';
import { expect, onTestFinished, test } from 'vitest';
import { approve, setCallbacks } from '../../emulator/console/lifecycle.js';
import { type Limits, SPEC_LIMITS } from '../../emulator/context.js';
import { envValues } from '../../emulator/control/env.js';
import type { Fixture } from '../../emulator/fixture.js';
import { createLogger } from '../../emulator/logger.js';
import { startServer } from '../../emulator/server.js';
import type { DefectName } from '../../fixtures/agency-reference/defects.js';
import { createAgencyLogger } from '../../fixtures/agency-reference/logger.js';
import { startAgency } from '../../fixtures/agency-reference/server.js';
import { coverSandbox, fetchPost } from '../support/sandbox-coverage.js';
import { DEFAULT_FIXTURE, FROZEN_AT } from '../world.js';
import { type Hop, type TestBrowser, formOf } from './test-browser.js';
import { startServiceSpy } from './service-spy.js';

export interface WorldOptions {
  defects?: DefectName[];
  fixture?: (fixture: Fixture) => Fixture;
  limits?: Partial<Limits>;
  /** Default true: callbacks set to the agency, sandbox covered, approved; scans route to the agency. */
  approved?: boolean;
  /** The agency's clock: moved by the test (default), or the system's for a real browser's timers. */
  agencyClock?: 'manual' | 'real';
}

/** Anna signs in from Germany, whose terms set a minimum age of 18. */
export const ANNA = 'anna.weber@example.test';

/** `onFinished` registers the teardown; concurrent tests pass their context's `onTestFinished`. */
export async function agencyWorld(options: WorldOptions = {}, onFinished: (teardown: () => Promise<void>) => void = onTestFinished) {
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
  const agency = await startAgency({
    port: 0, emulatorUrl: spy.url, defects: options.defects ?? [], keys: { sandbox: env.sandbox_key, production: env.production_key },
    logger: createAgencyLogger(sink), now: options.agencyClock === 'real' ? Date.now : () => clock.at,
  });
  onFinished(async () => {
    await agency.close();
    await spy.close();
    await emulator.close();
  });
  const w = {
    emulator, world: emulator.world, env, spy, agency, logLines,
    /** Moves the agency's clock only; `world.clock` is the emulator's. */
    advanceAgency: (ms: number) => void (clock.at += ms),
    /** Both clocks, as real time passing would. */
    advance: (ms: number) => {
      clock.at += ms;
      emulator.world.clock.advance(ms);
    },
  };
  if (options.approved !== false) await approveAgency(w);
  return w;
}

export type AgencyWorld = Awaited<ReturnType<typeof agencyWorld>>;

async function approveAgency(w: Pick<AgencyWorld, 'world' | 'agency' | 'emulator' | 'env'>): Promise<void> {
  const change = setCallbacks(w.world, { production: w.agency.callbackUrl, preview: w.agency.previewUrl });
  if (!change.ok) throw new Error(JSON.stringify(change.problems));
  await coverSandbox(fetchPost(w.emulator.baseUrl, w.env.sandbox_key!));
  const approval = approve(w.world);
  if (!approval.ok) throw new Error(`not approved: ${JSON.stringify(approval.missing)}`);
}

/** A rule of the spec: the reference agency keeps it, and its defect switch breaks it. */
export function rule<T extends object>(spec: {
  defect: DefectName;
  title: string;
  world?: Omit<WorldOptions, 'defects'>;
  observe: (w: AgencyWorld) => Promise<T>;
  holds: { [K in keyof T]?: unknown };
  broken: { [K in keyof T]?: unknown };
}): void {
  test(spec.title, async () => {
    expect(await spec.observe(await agencyWorld(spec.world))).toMatchObject(spec.holds);
  });
  test(`--defect ${spec.defect} breaks it`, async () => {
    expect(await spec.observe(await agencyWorld({ ...spec.world, defects: [spec.defect] }))).toMatchObject(spec.broken);
  });
}

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

/** The session tokens the emulator issued, as the spy saw them come back. */
export function issuedSessionTokens(w: AgencyWorld): string[] {
  return w.spy.calls.flatMap((call) => (typeof call.response?.session_token === 'string' ? [call.response.session_token] : []));
}
