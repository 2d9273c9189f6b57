/** Delivery polling of a pending entry, as spec §8 sets it: 2, 5, 10, then every 30 seconds. */
import type { ObservedCall } from '../emulator/client.js';

export const POLL_SCHEDULE_S = [2, 5, 10, 30];

/** Scheduling tolerance: the observed times are the service's arrival times of the calls. */
const SLACK_MS = 100;

export interface Interval {
  /** 1 for the first poll after the entry. */
  poll: number;
  seconds: number;
  expected: number;
}

/** Every interval: entry to first poll, then poll to poll, with the minimum the schedule allows. */
export function intervals(entryAt: number, polls: readonly ObservedCall[]): Interval[] {
  let previous = entryAt;
  return polls.map((poll, index) => {
    const interval = { poll: index + 1, seconds: (poll.at - previous) / 1000, expected: POLL_SCHEDULE_S[Math.min(index, POLL_SCHEDULE_S.length - 1)]! };
    previous = poll.at;
    return interval;
  });
}

/** The first interval shorter than the schedule allows, if any. */
export function scheduleViolation(entryAt: number, polls: readonly ObservedCall[]): Interval | undefined {
  return intervals(entryAt, polls).find((interval) => interval.seconds * 1000 + SLACK_MS < interval.expected * 1000);
}

/** The state a page should end on after a terminal poll: won once delivered, failed once delivery failed. */
export function finalState(terminal: ObservedCall): 'won' | 'failed' | undefined {
  if (terminal.answer?.delivery_state === 'delivered') return 'won';
  if (terminal.answer?.delivery_state === 'failed') return 'failed';
  return undefined;
}

/** A poll whose answer ends polling: delivery settled, session gone, integration unavailable. */
export function isTerminalPoll(call: ObservedCall): boolean {
  return ['delivered', 'failed'].includes(call.answer?.delivery_state ?? '') || [401, 409, 410].includes(call.status);
}
