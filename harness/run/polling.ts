/** Delivery polling of a pending entry, as spec §8 sets it: 2, 5, 10, then every 30 seconds. */
import type { ObservedCall } from '../emulator-client/client.js';
import type { RunFacts } from './facts.js';

export const POLL_SCHEDULE_S = [2, 5, 10, 30];

/** Seconds the schedule sets between the call before poll `index + 1` and that poll (index 0: the entry and the first poll). */
function intervalBefore(index: number): number {
  return POLL_SCHEDULE_S[Math.min(index, POLL_SCHEDULE_S.length - 1)]!;
}

/** Seconds from the entry to the schedule's `poll`th poll (1 for the first). */
export function secondsUntilPoll(poll: number): number {
  return Array.from({ length: poll }, (_, index) => intervalBefore(index)).reduce((sum, seconds) => sum + seconds, 0);
}

/** Scheduling tolerance: the observed times are the service's arrival times of the calls. */
const SLACK_MS = 100;

export interface Interval {
  /** 1 for the first poll after the entry. */
  poll: number;
  /** The interval the agency decided: between the page's requests when it drove the poll, else at the service. */
  seconds: number;
  expected: number;
  /** The page decided it: measured between its requests. */
  byPage?: boolean;
}

/**
 * How long the agency's backend may take to call the service for a browser request, for the call to
 * count as that request's: a page that decides when to poll sends one request per poll, and its
 * backend calls the service while answering it.
 */
export const BACKEND_LATENCY_MS = 2000;

/**
 * Every interval: entry to first poll, then poll to poll, with the minimum the schedule allows.
 * `decidedAt` gives, per call (the entry, then each poll), when the agency decided it where the
 * browser did: the page's own request that the service call answered. An interval the page decided
 * is measured between its requests: at the service it may come out shorter than the page's timer
 * by the difference of the backend's latency for the two calls (4.6 s for a 5 s timer on a loaded
 * machine), which is not the agency polling early. Elsewhere (the server decides) it is measured at
 * the service.
 */
export function intervals(entryAt: number, polls: readonly ObservedCall[], decidedAt: ReadonlyArray<number | undefined> = []): Interval[] {
  const served = [entryAt, ...polls.map((poll) => poll.at)];
  return polls.map((_poll, index) => {
    const [from, to] = [decidedAt[index], decidedAt[index + 1]];
    const atService = (served[index + 1]! - served[index]!) / 1000;
    const byPage = from !== undefined && to !== undefined && to > from;
    const seconds = byPage ? Math.max((to - from) / 1000, atService) : atService;
    return { poll: index + 1, seconds, expected: intervalBefore(index), ...(byPage ? { byPage: true } : {}) };
  });
}

/** The first interval shorter than the schedule allows, if any. */
export function scheduleViolation(entryAt: number, polls: readonly ObservedCall[], decidedAt: ReadonlyArray<number | undefined> = []): Interval | undefined {
  return intervals(entryAt, polls, decidedAt).find((interval) => interval.seconds * 1000 + SLACK_MS < interval.expected * 1000);
}

/** Requests a page polls with: its own loads, fetches and XHRs (not its images or styles). */
export const POLLING_TYPES = new Set(['document', 'fetch', 'xhr', 'eventsource', 'websocket']);

/**
 * Per service call time (the emulator's clock), when the page decided it: its own request to the
 * agency that the call followed within BACKEND_LATENCY_MS, when no earlier call followed the same
 * request; undefined where the agency's server decided by itself.
 */
export function pageDecided(facts: RunFacts, scenario: string, journey: string, calls: readonly number[]): Array<number | undefined> {
  const requests = facts.requests
    .filter((request) => request.scenario === scenario && request.journey === journey && POLLING_TYPES.has(request.resourceType) && facts.isAgency(request.url))
    .map((request) => facts.onEmulatorClock(request.at))
    .sort((a, b) => a - b);
  const used = new Set<number>();
  return calls.map((at) => {
    const trigger = requests.filter((sent) => sent <= at && sent >= at - BACKEND_LATENCY_MS).at(-1);
    if (trigger === undefined || used.has(trigger)) return undefined;
    used.add(trigger);
    return trigger;
  });
}

/** The state a page should end on after a terminal poll: won once delivered, failed once delivery failed. */
export function finalState(terminal: ObservedCall): 'won' | 'failed' | undefined {
  if (terminal.answer?.delivery_state === 'delivered') return 'won';
  if (terminal.answer?.delivery_state === 'failed') return 'failed';
  return undefined;
}

/**
 * How late a due poll may reach the service before its absence counts: the page's timer firing late
 * on a busy machine, then the agency's backend answering it (BACKEND_LATENCY_MS).
 */
export const LATE_POLL_MS = BACKEND_LATENCY_MS + 3000;

/**
 * When the service should have seen the next poll at the latest, after the entry at `entryAt` and
 * `polls` so far: the schedule's next interval from the last call, plus LATE_POLL_MS. A watch that
 * ends before it cannot tell an agency that stopped polling from one whose next poll was not due.
 */
export function nextPollDue(entryAt: number, polls: readonly ObservedCall[]): number {
  const last = polls.at(-1)?.at ?? entryAt;
  return last + intervalBefore(polls.length) * 1000 + LATE_POLL_MS;
}

/** The longest a watch waits for a poll once its window is over: the schedule's longest interval, late. */
export const LONGEST_POLL_WAIT_MS = POLL_SCHEDULE_S.at(-1)! * 1000 + LATE_POLL_MS;

/**
 * An answer after which there is nothing to poll (spec §8, §3): to a session read, the delivery
 * settled, the session gone (401, a key refused included), the integration unavailable (409/410, or
 * a read that says so); to the entry, a result other than pending (the service answered the final
 * state at once).
 */
export function isTerminalAnswer(call: ObservedCall): boolean {
  if (call.method === 'POST' && call.path === '/session/entry') return call.status === 200 && call.answer?.entry_state !== 'pending';
  return ['delivered', 'failed'].includes(call.answer?.delivery_state ?? '') || call.answer?.eligibility === 'unavailable' || ENDING_STATUSES.includes(call.status);
}

/** A session read's statuses that end polling: the session gone (401), the integration unavailable (409, 410). */
export const ENDING_STATUSES: readonly number[] = [401, 409, 410];
