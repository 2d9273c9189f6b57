/**
 * Sliding-window rate limits: at most `limit` requests in any `windowMs`. Rejected requests do not
 * count. @see spec §8 (60 per minute per session, 3,000 per minute per key)
 */
export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number };

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  take(id: string, now: number): Admission {
    const recent = this.recent(id, now);
    if (recent.length >= this.limit) {
      const oldest = recent[0] ?? now;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) };
    }
    recent.push(now);
    return { ok: true };
  }

  private recent(id: string, now: number): number[] {
    const hits = this.hits.get(id) ?? [];
    const firstLive = hits.findIndex((at) => at > now - this.windowMs);
    const recent = firstLive === -1 ? [] : firstLive === 0 ? hits : hits.slice(firstLive);
    this.hits.set(id, recent);
    return recent;
  }
}
