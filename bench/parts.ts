/**
 * The parts of a run: BENCH_ONLY=part,part runs those parts only (for working on one figure);
 * unset runs everything.
 */
import { CASES } from './cases.js';

const PARTS = [...CASES.map((each) => each.id), 'mixed', 'startup', 'reporting', 'reads', 'control-reads', 'verify', 'hostile'];

interface Parts {
  /** Whether a part runs. */
  runs(part: string): boolean;
  /** Whether only some parts run: such a run checks only the targets it measured. */
  partial: boolean;
}

/** The parts BENCH_ONLY names; a name of no part ends the process: one line naming the parts, exit 2. */
export function chosenParts(only = process.env.BENCH_ONLY): Parts {
  const named = only ? new Set(only.split(',').map((part) => part.trim())) : undefined;
  const unknown = [...(named ?? [])].filter((part) => !PARTS.includes(part));
  if (unknown.length > 0) {
    console.error(`[bench] BENCH_ONLY names no part ${unknown.join(', ')}; the parts: ${PARTS.join(', ')}`);
    process.exit(2);
  }
  return { runs: (part) => !named || named.has(part), partial: named !== undefined };
}
