/**
 * The start of a production journey, in a given browser: the scan that reaches the service's
 * authorize page through the agency, and Continue there, followed or held. The `scan` and
 * `authorize` steps run it in a journey's browser; the state probes in fresh ones, each a journey
 * of its own (probes.ts).
 */
import { randomBytes } from 'node:crypto';
import type { BrowserSession } from './browser-session.js';
import { harnessCollectorEmail } from '../../emulator/wire-contract.js';
import { AuthorizePage, SignInPage } from '../pages/emulator.js';
import { type JourneyFacts, redactUrl } from './facts.js';
import type { ScenarioRun } from './scenario-run.js';
import { complete, exchangeOf, lastRequest } from './step-support.js';

/** Signs in as the journey's collector and scans its pack; ends on the authorize page, its query recorded. `supplyState` adds a state of the browser's own to the first callback request. */
export async function scanPack(run: ScenarioRun, journey: JourneyFacts, session: BrowserSession, supplyState: boolean): Promise<void> {
  const { facts } = run;
  const scan = `${facts.origins.emulator}/q/${encodeURIComponent(journey.pack.code)}`;
  // To add a state to the service's redirect, sign in first, then take the scan's redirect without following it.
  await session.goto(supplyState ? `${facts.origins.emulator}/sign-in?next=%2Fpromotions` : scan);
  const signIn = new SignInPage(session.page);
  if (signIn.isShown()) await signIn.signIn(harnessCollectorEmail(journey.country), journey.country, (button) => session.act(() => button.click()));
  if (supplyState) {
    const { status, location } = await session.toEmulator(scan);
    if (!location || !facts.isCallback(new URL(location, scan).href)) throw new Error(`the scan was not routed to the agency's callback (HTTP ${status}): is the integration approved?`);
    const url = new URL(location, scan);
    journey.suppliedState = randomBytes(32).toString('base64url');
    url.searchParams.set('state', journey.suppliedState);
    await session.goto(url.href);
  }
  // The agency sends the browser on to the service's authorize page, by a redirect or from a script.
  const authorize = new AuthorizePage(session.page);
  await session.page.waitForURL((url) => authorize.isAt(url, facts.origins.emulator), { timeout: 8000 }).catch(() => undefined);
  journey.serviceRequest = lastRequest(run, journey.journey, (url) => facts.isCallback(url.href) && url.searchParams.has('service_request'))?.searchParams.get('service_request') ?? undefined;
  const sent = authorize.isShown(facts.origins.emulator) ? new URL(session.page.url()) : lastRequest(run, journey.journey, (url) => authorize.isAt(url, facts.origins.emulator));
  if (sent) {
    const query = sent.searchParams;
    journey.authorize = { url: sent.href, state: query.get('state') ?? undefined, challenge: query.get('code_challenge') ?? undefined, method: query.get('code_challenge_method') ?? undefined };
  }
  if (!authorize.isShown(facts.origins.emulator) || (session.lastStatus ?? 200) >= 400) {
    await run.observe(session);
    throw new Error(`after the scan the browser shows ${redactUrl(session.page.url())} (HTTP ${session.lastStatus}), not the service's authorize page`);
  }
}

/** Continue on the authorize page, then the agency's exchange of the code; `hold` keeps the service's callback URL without opening it. */
export async function continueOnAuthorize(run: ScenarioRun, journey: JourneyFacts, session: BrowserSession, hold: boolean): Promise<void> {
  const { facts } = run;
  const authorize = new AuthorizePage(session.page);
  if (!authorize.isShown(facts.origins.emulator)) throw new Error(`not on the authorize page but ${redactUrl(session.page.url())}`);
  const isReturn = (url: URL) => facts.isCallback(url.href) && url.searchParams.has('service_code');
  if (hold) {
    // The service's redirect back, taken without following it: the callback URL is held, unopened.
    const form = await authorize.fields();
    const { status, location } = await session.toEmulator(new URL('/authorize', facts.origins.emulator).href, form);
    if (!location || !isReturn(new URL(location, facts.origins.emulator))) throw new Error(`Continue did not redirect to the callback (HTTP ${status})`);
    journey.issuedCallback = new URL(location, facts.origins.emulator).href;
    return;
  }
  const at = Date.now();
  journey.openedAt = at;
  await session.act(() => authorize.continueButton.click());
  journey.issuedCallback = lastRequest(run, journey.journey, isReturn)?.href;
  await openedCallback(run, session, journey.issuedCallback);
  await complete(run, journey, session, at);
}

/** The held callback opened as issued in the journey's browser: the exchange it sets off, then where it leads. */
export async function openAsIssued(run: ScenarioRun, journey: JourneyFacts, session: BrowserSession): Promise<void> {
  const issued = journey.issuedCallback;
  if (!issued) throw new Error('no callback URL held: run "authorize" with "hold": true first');
  const at = Date.now();
  journey.openedAt = at;
  await session.goto(issued);
  await openedCallback(run, session, issued);
  await complete(run, journey, session, at);
}

/** After the callback was opened as issued: the agency's exchange of its code (from the server or the page), then the page it leads to. */
async function openedCallback(run: ScenarioRun, session: BrowserSession, callback: string | undefined): Promise<void> {
  if (callback) await exchangeOf(run, callback, 5000);
  await session.act(async () => undefined);
}
