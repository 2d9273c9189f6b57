/**
 * What several steps share: opening a preview scenario, waiting for a journey's entry to reach
 * the service, recording a callback's completion or a probe, and reading the journey's requests.
 */
import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserSession } from '../browser/session.js';
import type { ObservedCall } from '../emulator/client.js';
import { PreviewPage } from '../pages/agency.js';
import { type JourneyFacts, type ProbeKind, redactUrl } from './facts.js';
import type { ScenarioRun } from './scenario-run.js';

/** One sandbox scenario through the preview: its link, then the result page it shows. */
export async function openPreview(run: ScenarioRun, session: BrowserSession, preview: string, scenario: string): Promise<void> {
  await session.goto(preview);
  const link = new PreviewPage(session.page, run.env.config.markers).link(scenario);
  if ((await link.count()) === 0) {
    run.facts.expectations.push({ scenario: run.scenario.id, journey: 'preview', environment: 'sandbox', state: scenario, met: false, shown: {}, url: `${preview} (no link for ${scenario})` });
    return;
  }
  await session.clickAndWait(() => link.click());
  run.facts.previewed.push(scenario);
  const seen = await run.observe(session);
  const shown = seen?.markers ?? {};
  run.facts.expectations.push({ scenario: run.scenario.id, journey: 'preview', environment: 'sandbox', state: scenario, met: shown.entryState === scenario, shown, url: session.page.url() });
}

/** The first accepted entry call of the journey's pack, waited for (up to 5 s). */
export async function entryCall(run: ScenarioRun, journey: JourneyFacts): Promise<ObservedCall> {
  for (let attempt = 0; attempt < 25; attempt += 1) {
    const { data } = await run.env.client.observed(0, { pack: journey.pack.code });
    const entry = data.find((call) => call.method === 'POST' && call.path === '/session/entry' && call.status === 200);
    if (entry) return entry;
    await sleep(200);
  }
  throw new Error(`no accepted entry of pack ${journey.pack.code} reached the service`);
}

/** Records how the callback opened as issued went: a redirect to a clean URL, or not. */
export async function complete(run: ScenarioRun, journey: JourneyFacts, session: BrowserSession, at: number): Promise<void> {
  await session.settle();
  const issued = journey.issuedCallback;
  const response = issued ? run.facts.responses.find((candidate) => candidate.url === issued && candidate.journey === journey.journey && candidate.scenario === journey.scenario) : undefined;
  journey.completion = { at, status: response?.status ?? session.lastStatus ?? 0, location: response?.headers.location, landed: session.page.url() };
  await run.observe(session);
}

export async function probe(run: ScenarioRun, kind: ProbeKind, journey: JourneyFacts, session: BrowserSession, url: string, code: string): Promise<void> {
  const at = Date.now();
  const status = await session.goto(url);
  const seen = await run.observe(session);
  // An agency that exchanges in the background gets a moment, in case this is the scenario's last step.
  await sleep(300);
  run.facts.probes.push({
    kind, scenario: run.scenario.id, journey: journey.journey, at, codeSha: createHash('sha256').update(code).digest('hex'), url: redactUrl(url),
    page: { status, url: session.page.url(), markers: seen?.markers ?? {} },
  });
}

export function lastRequest(run: ScenarioRun, journey: string, matches: (url: URL) => boolean): URL | undefined {
  for (const request of [...run.facts.requests].reverse()) {
    if (request.scenario !== run.scenario.id || request.journey !== journey) continue;
    try {
      const url = new URL(request.url);
      if (matches(url)) return url;
    } catch {
      // not a URL
    }
  }
  return undefined;
}

/** The same length and alphabet, one character different. */
export function tamper(state: string): string {
  if (!state) return randomBytes(32).toString('base64url');
  const last = state.at(-1)!;
  return state.slice(0, -1) + (last === 'A' ? 'B' : 'A');
}
