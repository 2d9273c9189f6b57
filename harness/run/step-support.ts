/**
 * What several steps share: waiting for the emulator to observe a call (every read anchored to
 * the run's baseline, so an earlier run's calls on the same pack never count), the service's answer
 * a page's state is about, recording a callback's completion, reading the journey's requests.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserSession } from './browser-session.js';
import type { ObservedCall } from '../emulator-client/client.js';
import { STATE_ANSWERS, type ServiceAnswer, type StateName } from '../journey-states.js';
import { type JourneyFacts, sha256 } from './facts.js';
import type { ScenarioRun } from './scenario-run.js';

export const isEntryCall = (call: ObservedCall) => call.method === 'POST' && call.path === '/session/entry';

/** Polls the run's observed calls (of a pack, when given) until one matches; undefined after `timeoutMs`. */
export async function waitForCall(run: ScenarioRun, matches: (call: ObservedCall) => boolean, options: { pack?: string; timeoutMs: number }): Promise<ObservedCall | undefined> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const found = (await run.observed(options.pack)).find(matches);
    if (found || Date.now() >= deadline) return found;
    await sleep(150);
  }
}

/** The first accepted entry call of the journey's pack in this run, waited for (up to 5 s). */
export async function entryCall(run: ScenarioRun, journey: JourneyFacts): Promise<ObservedCall> {
  const entry = await waitForCall(run, (call) => isEntryCall(call) && call.status === 200, { pack: journey.pack.code, timeoutMs: 5000 });
  if (!entry) throw new Error(`no accepted entry of pack ${journey.pack.code} reached the service`);
  return entry;
}

/** The service's last answer to the journey's entry in this run, as the emulator observed it. */
export async function lastEntryAnswer(run: ScenarioRun, journey: JourneyFacts): Promise<ServiceAnswer | undefined> {
  return answerOf((await run.observed(journey.pack.code)).filter(isEntryCall).at(-1));
}

/** The service's answer a state shown for a while since the entry was about: the first since then that state shows, else the last. */
export async function answerSinceEntry(run: ScenarioRun, journey: JourneyFacts, state: StateName): Promise<ServiceAnswer | undefined> {
  const answers = await answersSinceEntry(run, journey);
  const rule = state === 'error' ? undefined : STATE_ANSWERS[state];
  return answers.find((answer) => rule?.is(answer)) ?? answers.at(-1) ?? (await lastEntryAnswer(run, journey));
}

/** The service's answers to the journey's entry since the harness last sent it (a page may send it again by itself), in order. */
export async function answersSinceEntry(run: ScenarioRun, journey: JourneyFacts): Promise<ServiceAnswer[]> {
  const sent = journey.submissions.at(-1)?.at;
  if (sent === undefined) return [];
  const calls = await run.observed(journey.pack.code);
  return calls.filter((call) => isEntryCall(call) && run.facts.onEmulatorClock(sent) <= call.at).flatMap((call) => answerOf(call) ?? []);
}

export function answerOf(call: ObservedCall | undefined): ServiceAnswer | undefined {
  return call && { status: call.status, ...(call.answer?.error ? { error: call.answer.error } : {}), entryState: call.answer?.entry_state ?? null };
}

/** A sandbox entry of a preview scenario in this run, waited for (up to `timeoutMs`). */
export function sandboxEntry(run: ScenarioRun, scenario: string, timeoutMs: number): Promise<ObservedCall | undefined> {
  return waitForCall(run, (call) => isEntryCall(call) && call.environment === 'sandbox' && call.scenario === scenario, { timeoutMs });
}

/** The code exchange of a callback URL in this run (however it ended), waited for (up to `timeoutMs`). */
export function exchangeOf(run: ScenarioRun, callback: string, timeoutMs: number): Promise<ObservedCall | undefined> {
  const code = new URL(callback).searchParams.get('service_code');
  if (!code) return Promise.resolve(undefined);
  const codeSha = sha256(code);
  return waitForCall(run, (call) => call.method === 'POST' && call.path === '/sessions' && call.code_sha256 === codeSha, { timeoutMs });
}

/** Records how the callback opened as issued went: a redirect to a clean URL, or not. */
export async function complete(run: ScenarioRun, journey: JourneyFacts, session: BrowserSession, at: number): Promise<void> {
  await session.settle();
  const issued = journey.issuedCallback;
  const response = issued ? run.facts.responses.find((candidate) => candidate.url === issued && candidate.journey === journey.journey && candidate.scenario === journey.scenario) : undefined;
  journey.completion = { at, status: response?.status ?? session.lastStatus ?? 0, location: response?.headers.location, landed: session.page.url() };
  await run.observe(session);
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
