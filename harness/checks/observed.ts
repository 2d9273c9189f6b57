/** Questions several checks ask of the emulator's observed calls. */
import type { ObservedCall } from '../emulator-client/client.js';
import { type JourneyFacts, type RunFacts, sha256 } from '../run/facts.js';

export const isExchange = (call: ObservedCall) => call.method === 'POST' && call.path === '/sessions' && call.environment !== 'sandbox';
export const isEntry = (call: ObservedCall) => call.method === 'POST' && call.path === '/session/entry';
export const isSessionRead = (call: ObservedCall) => call.method === 'GET' && call.path === '/session';

export function serviceCode(journey: JourneyFacts): string | undefined {
  return journey.issuedCallback ? (new URL(journey.issuedCallback).searchParams.get('service_code') ?? undefined) : undefined;
}

/** Exchanges that presented this authorization code. */
export function exchangesOf(facts: RunFacts, codeSha: string): ObservedCall[] {
  return facts.calls.filter((call) => isExchange(call) && call.code_sha256 === codeSha);
}

/** The journey's own exchanges: those of the code the service issued to it. */
export function journeyExchanges(facts: RunFacts, journey: JourneyFacts): ObservedCall[] {
  const code = serviceCode(journey);
  return code ? exchangesOf(facts, sha256(code)) : [];
}

/** How early (ms, the emulator's clock) an exchange may be seen before the harness noted opening the callback: the two clocks' offset is known only to within this. */
const CLOCK_SKEW_MS = 50;

/**
 * The exchange the journey's callback opened as issued set off: the first of its code seen once the
 * journey's own browser opened it. Any other exchange of the code is a probe's.
 */
export function issuedExchange(facts: RunFacts, journey: JourneyFacts): ObservedCall | undefined {
  const at = journey.completion?.at ?? journey.openedAt;
  if (at === undefined) return undefined;
  const opened = facts.onEmulatorClock(at) - CLOCK_SKEW_MS;
  return journeyExchanges(facts, journey).find((call) => call.at >= opened);
}

/** Entry calls of the run's production journeys. */
export function productionEntries(facts: RunFacts): Array<{ journey: JourneyFacts; call: ObservedCall }> {
  return facts.journeys.flatMap((journey) => facts.callsOf(journey.pack.code).filter(isEntry).map((call) => ({ journey, call })));
}

export function where(journey: JourneyFacts): string {
  return `${journey.scenario}${journey.journey === 'main' ? '' : `/${journey.journey}`}`;
}
