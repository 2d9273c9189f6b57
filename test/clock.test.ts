import { describe, expect, it } from 'vitest';
import { ClockRangeError, createClock, parseDuration } from '../emulator/clock.js';

/** System times in the clock's range (2000 to 9999). */
const T = Date.parse('2026-11-21T10:00:00.000Z');

describe('clock', () => {
  it('a frozen clock stands still until advanced', () => {
    let system = T + 1_000;
    const clock = createClock({ mode: 'frozen', frozenAt: T + 5_000 }, () => system);
    system = T + 9_000;
    expect(clock.now()).toBe(T + 5_000);
    clock.advance(60_000);
    expect(clock.now()).toBe(T + 65_000);
  });

  it('a real clock advanced by a duration runs on with an offset', () => {
    let system = T + 1_000;
    const clock = createClock({ mode: 'real' }, () => system);
    clock.advance(parseDuration('31m')!);
    expect(clock.state().mode).toBe('offset');
    system = T + 2_000;
    expect(clock.now()).toBe(T + 2_000 + 31 * 60_000);
  });

  it('unfreezing keeps the frozen instant and lets time run from there', () => {
    let system = T + 1_000;
    const clock = createClock({ mode: 'frozen', frozenAt: T + 50_000 }, () => system);
    clock.unfreeze();
    system = T + 1_500;
    expect(clock.now()).toBe(T + 50_500);
  });

  it('reset goes back to the system time', () => {
    const clock = createClock({ mode: 'frozen', frozenAt: T + 50_000 }, () => T);
    clock.reset();
    expect(clock.state()).toMatchObject({ mode: 'real', offsetMs: 0, now: '2026-11-21T10:00:00.000Z' });
  });

  it('refuses to leave 2000-01-01 to 9999-01-01, changing nothing, and tells who listens nothing', () => {
    const clock = createClock({ mode: 'frozen', frozenAt: T }, () => T);
    const changes: unknown[] = [];
    clock.onChange((state) => changes.push(state));
    expect(() => clock.advance(100_000_000 * 86_400_000)).toThrow(ClockRangeError);
    expect(() => clock.freeze(Date.parse('1999-12-31T23:59:59.999Z'))).toThrow(ClockRangeError);
    expect(() => clock.freeze(Date.parse('9999-01-01T00:00:00.001Z'))).toThrow(ClockRangeError);
    expect(clock.now()).toBe(T);
    expect(changes).toEqual([]);
    expect(() => createClock({ mode: 'offset', offsetMs: Number.POSITIVE_INFINITY }, () => T)).toThrow(ClockRangeError);
  });

  it('parses compound durations and rejects malformed ones', () => {
    expect(parseDuration('1h30m')).toBe(90 * 60_000);
    expect(parseDuration('90d')).toBe(90 * 86_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('31 minutes')).toBeUndefined();
    expect(parseDuration('')).toBeUndefined();
  });
});
