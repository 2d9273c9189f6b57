/**
 * Sliding-window rate limits: at most `limit` requests in any `windowMs`. Rejected requests do not
 * count. The limits themselves are `SPEC_LIMITS` (limits.ts). @see spec §8
 */
import { type Refused, refused } from '../wire-contract.js';

const ADMITTED = Object.freeze({ admitted: true as const });

/** A request may go on now, or is refused until a slot frees (in whole seconds). */
export type RateDecision = typeof ADMITTED | Refused<{ retryAfterSeconds: number }>;

/** One id's admitted requests, oldest first; those before `head` have left the window. */
interface Hits {
  times: number[];
  head: number;
}

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, Hits>();
  private lastSweep = -Infinity;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  take(id: string, now: number): RateDecision {
    this.sweep(now);
    let hits = this.hits.get(id);
    if (!hits) this.hits.set(id, (hits = { times: [], head: 0 }));
    const { times } = hits;
    while (hits.head < times.length && times[hits.head]! <= now - this.windowMs) hits.head++;
    // Dropping the expired part only once it is the larger half keeps each request O(1) on average.
    if (hits.head > 64 && hits.head * 2 > times.length) {
      hits.times = times.slice(hits.head);
      hits.head = 0;
    }
    if (hits.times.length - hits.head >= this.limit) {
      const oldest = hits.times[hits.head] ?? now;
      return refused({ retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) });
    }
    hits.times.push(now);
    return ADMITTED;
  }

  /** Once a window: forgets ids with nothing left in it (sessions end; their windows would pile up). */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs && now >= this.lastSweep) return;
    this.lastSweep = now;
    for (const [id, hits] of this.hits) {
      if (hits.times.length === 0 || hits.times.at(-1)! <= now - this.windowMs) this.hits.delete(id);
    }
  }
}
