/**
 * The virtual clock. Every expiry, rate-limit window and delivery delay reads time from here,
 * so `emulator clock advance 31m` moves all of them at once. Nothing else reads the system clock.
 */
export type ClockMode = 'real' | 'frozen' | 'offset';

export interface ClockState {
  mode: ClockMode;
  /** Frozen: the instant shown. Offset: milliseconds added to the system time. */
  frozenAt?: number;
  offsetMs?: number;
}

/**
 * The span the clock may show. Every time derived from it, the furthest being a key's expiry 90
 * days ahead, seeded history 104 days back and a webhook's last retry 6 hours ahead, is then a
 * valid date with a four-digit year, which every serializer and schema expects.
 */
export const CLOCK_RANGE = { min: Date.parse('2000-01-01T00:00:00.000Z'), max: Date.parse('9999-01-01T00:00:00.000Z') } as const;

/** The largest time a JavaScript Date holds. */
const MAX_DATE_MS = 8.64e15;

/** A clock change or a saved clock that would leave `CLOCK_RANGE`; nothing was applied. */
export class ClockRangeError extends Error {
  constructor(readonly at: number) {
    const shown = Number.isFinite(at) && Math.abs(at) <= MAX_DATE_MS ? new Date(at).toISOString() : 'no valid date';
    super(`would show ${shown}; the clock must stay between ${new Date(CLOCK_RANGE.min).toISOString()} and ${new Date(CLOCK_RANGE.max).toISOString()}`);
  }
}

export interface Clock {
  now(): number;
  iso(): string;
  /** advance, freeze and reset throw a ClockRangeError, changing nothing, when the clock would leave `CLOCK_RANGE`. */
  advance(ms: number): void;
  freeze(at?: number): void;
  unfreeze(): void;
  /** Back to the system time, as a new data folder starts. */
  reset(): void;
  state(): Required<ClockState> & { now: string };
  onChange(listener: (state: ClockState) => void): void;
  /** The machine's own time, which no move of the clock changes: for a tool's lease on the emulator, never for a rule of the service. */
  system(): number;
}

/** Throws a ClockRangeError when `initial` shows a time outside `CLOCK_RANGE`. */
export function createClock(initial: ClockState = { mode: 'real' }, system: () => number = Date.now): Clock {
  let frozenAt = initial.mode === 'frozen' ? (initial.frozenAt ?? system()) : undefined;
  let offsetMs = initial.offsetMs ?? 0;
  const listeners: Array<(state: ClockState) => void> = [];

  const mode = (): ClockMode => (frozenAt !== undefined ? 'frozen' : offsetMs !== 0 ? 'offset' : 'real');
  const current = (): ClockState => ({ mode: mode(), frozenAt, offsetMs });
  const changed = () => listeners.forEach((listener) => listener(current()));
  const now = () => (frozenAt !== undefined ? frozenAt : system() + offsetMs);
  checkInRange(now());

  return {
    now,
    system,
    iso: () => new Date(now()).toISOString(),
    advance(ms) {
      checkInRange(now() + ms);
      if (frozenAt !== undefined) frozenAt += ms;
      else offsetMs += ms;
      changed();
    },
    freeze(at) {
      const target = at ?? now();
      checkInRange(target);
      frozenAt = target;
      changed();
    },
    unfreeze() {
      if (frozenAt !== undefined) offsetMs = frozenAt - system();
      frozenAt = undefined;
      changed();
    },
    reset() {
      checkInRange(system());
      frozenAt = undefined;
      offsetMs = 0;
      changed();
    },
    state: () => ({ mode: mode(), frozenAt: frozenAt ?? 0, offsetMs, now: new Date(now()).toISOString() }),
    onChange: (listener) => listeners.push(listener),
  };
}

function checkInRange(at: number): void {
  if (!(at >= CLOCK_RANGE.min && at <= CLOCK_RANGE.max)) throw new ClockRangeError(at);
}

/** The units of a duration, largest first: what `31m` and `1h30m` are written in, and what `30 minutes` says (domain/limits.ts). */
export const DURATION_UNITS = [
  { short: 'd', word: 'day', ms: 86_400_000 },
  { short: 'h', word: 'hour', ms: 3_600_000 },
  { short: 'm', word: 'minute', ms: 60_000 },
  { short: 's', word: 'second', ms: 1000 },
  { short: 'ms', word: 'millisecond', ms: 1 },
] as const;

const UNIT_MS = new Map<string, number>(DURATION_UNITS.map(({ short, ms }) => [short, ms]));

/** Parses durations such as `31m`, `90d`, `1h30m`, `500ms`; returns undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const parts = [...text.trim().matchAll(/(\d+)(ms|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text.trim()) return undefined;
  return parts.reduce((total, [, amount, unit]) => total + Number(amount) * UNIT_MS.get(unit!)!, 0);
}

/** `+31m`, `-1h30m`: the shape `clock advance` takes; milliseconds only under a second. */
export function formatOffset(ms: number): string {
  let rest = Math.abs(ms) < 1000 ? Math.abs(ms) : Math.round(Math.abs(ms) / 1000) * 1000;
  const parts = DURATION_UNITS.flatMap(({ short, ms: size }) => {
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    return amount ? [`${amount}${short}`] : [];
  });
  return `${ms < 0 ? '-' : '+'}${parts.join('') || '0s'}`;
}
