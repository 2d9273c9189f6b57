/** Questions several checks ask of the emulator's observed calls. */
import type { ObservedCall } from '../emulator/client.js';
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

/** The run saw an exchange that created a session: the proof that a missing exchange means something. */
export function successfulExchange(facts: RunFacts): { journey: JourneyFacts; call: ObservedCall } | undefined {
  for (const journey of facts.journeys) {
    const call = journeyExchanges(facts, journey).find((candidate) => candidate.status === 201 && candidate.answer?.session_created);
    if (call) return { journey, call };
  }
  return undefined;
}

/** Entry calls of the run's production journeys. */
export function productionEntries(facts: RunFacts): Array<{ journey: JourneyFacts; call: ObservedCall }> {
  return facts.journeys.flatMap((journey) => facts.callsOf(journey.pack.code).filter(isEntry).map((call) => ({ journey, call })));
}

export function where(journey: JourneyFacts): string {
  return `${journey.scenario}${journey.journey === 'main' ? '' : `/${journey.journey}`}`;
}
