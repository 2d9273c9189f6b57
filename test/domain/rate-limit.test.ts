import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../emulator/domain/rate-limit.js';

describe('sliding-window rate limit', () => {
  it('admits the limit within a window and refuses the next with the seconds until a slot frees', () => {
    const limiter = new SlidingWindowLimiter(60, 60_000);
    for (let i = 0; i < 60; i++) expect(limiter.take('s', 1_000 + i * 100)).toEqual({ admitted: true });
    expect(limiter.take('s', 10_000)).toEqual({ refused: { retryAfterSeconds: 51 } });
  });

  it('admits again once the oldest request leaves the window', () => {
    const limiter = new SlidingWindowLimiter(2, 60_000);
    limiter.take('s', 0);
    limiter.take('s', 30_000);
    expect(limiter.take('s', 59_999)).toHaveProperty('refused');
    expect(limiter.take('s', 60_000)).toEqual({ admitted: true });
  });

  it('a limit of zero refuses everything with a whole window to wait', () => {
    expect(new SlidingWindowLimiter(0, 60_000).take('s', 0)).toEqual({ refused: { retryAfterSeconds: 60 } });
  });

  it('keeps separate windows per id', () => {
    const limiter = new SlidingWindowLimiter(1, 60_000);
    expect(limiter.take('a', 0)).toEqual({ admitted: true });
    expect(limiter.take('b', 0)).toEqual({ admitted: true });
    expect(limiter.take('a', 1)).toHaveProperty('refused');
  });
});

describe('sliding-window rate limit under sustained load', () => {
  it('keeps counting right while old requests keep leaving the window', () => {
    const limiter = new SlidingWindowLimiter(100, 1_000);
    for (let t = 0; t < 10_000; t += 10) expect(limiter.take('k', t)).toEqual({ admitted: true });
    expect(limiter.take('k', 10_000)).toEqual({ admitted: true });
    expect(limiter.take('k', 10_000)).toEqual({ refused: { retryAfterSeconds: 1 } });
  });

  it('forgets an id once its window is empty, and counts it afresh', () => {
    const limiter = new SlidingWindowLimiter(1, 60_000);
    expect(limiter.take('a', 0)).toEqual({ admitted: true });
    expect(limiter.take('b', 120_000)).toEqual({ admitted: true });
    expect(limiter.take('a', 120_001)).toEqual({ admitted: true });
    expect(limiter.take('a', 120_002)).toHaveProperty('refused');
  });
});
