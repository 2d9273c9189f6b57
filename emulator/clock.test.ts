import { describe, expect, it } from 'vitest';
import { createClock, parseDuration } from './clock.js';

describe('clock', () => {
  it('a frozen clock stands still until advanced', () => {
    let system = 1_000;
    const clock = createClock({ mode: 'frozen', frozenAt: 5_000 }, () => system);
    system = 9_000;
    expect(clock.now()).toBe(5_000);
    clock.advance(60_000);
    expect(clock.now()).toBe(65_000);
  });

  it('a real clock advanced by a duration runs on with an offset', () => {
    let system = 1_000;
    const clock = createClock({ mode: 'real' }, () => system);
    clock.advance(parseDuration('31m')!);
    expect(clock.state().mode).toBe('offset');
    system = 2_000;
    expect(clock.now()).toBe(2_000 + 31 * 60_000);
  });

  it('unfreezing keeps the frozen instant and lets time run from there', () => {
    let system = 1_000;
    const clock = createClock({ mode: 'frozen', frozenAt: 50_000 }, () => system);
    clock.unfreeze();
    system = 1_500;
    expect(clock.now()).toBe(50_500);
  });

  it('parses compound durations and rejects malformed ones', () => {
    expect(parseDuration('1h30m')).toBe(90 * 60_000);
    expect(parseDuration('90d')).toBe(90 * 86_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('31 minutes')).toBeUndefined();
    expect(parseDuration('')).toBeUndefined();
  });
});
