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

export interface Clock {
  now(): number;
  iso(): string;
  advance(ms: number): void;
  freeze(at?: number): void;
  unfreeze(): void;
  state(): Required<ClockState> & { now: string };
  onChange(listener: (state: ClockState) => void): void;
}

export function createClock(initial: ClockState = { mode: 'real' }, system: () => number = Date.now): Clock {
  let frozenAt = initial.mode === 'frozen' ? (initial.frozenAt ?? system()) : undefined;
  let offsetMs = initial.offsetMs ?? 0;
  const listeners: Array<(state: ClockState) => void> = [];

  const mode = (): ClockMode => (frozenAt !== undefined ? 'frozen' : offsetMs !== 0 ? 'offset' : 'real');
  const current = (): ClockState => ({ mode: mode(), frozenAt, offsetMs });
  const changed = () => listeners.forEach((listener) => listener(current()));
  const now = () => (frozenAt !== undefined ? frozenAt : system() + offsetMs);

  return {
    now,
    iso: () => new Date(now()).toISOString(),
    advance(ms) {
      if (frozenAt !== undefined) frozenAt += ms;
      else offsetMs += ms;
      changed();
    },
    freeze(at) {
      frozenAt = at ?? now();
      changed();
    },
    unfreeze() {
      if (frozenAt !== undefined) offsetMs = frozenAt - system();
      frozenAt = undefined;
      changed();
    },
    state: () => ({ mode: mode(), frozenAt: frozenAt ?? 0, offsetMs, now: new Date(now()).toISOString() }),
    onChange: (listener) => listeners.push(listener),
  };
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses durations such as `31m`, `90d`, `1h30m`, `500ms`; returns undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const parts = [...text.trim().matchAll(/(\d+)(ms|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text.trim()) return undefined;
  return parts.reduce((total, [, amount, unit]) => total + Number(amount) * UNITS[unit!]!, 0);
}
