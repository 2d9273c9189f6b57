/**
 * How fast this machine is, as this run measured it: bare `node:http` answering GET /campaign's JSON
 * under the bench's load. Ratio targets need no such figure; it is printed next to the absolute
 * figures so a reader can scale them, and it scales the few limits that are times by nature
 * (a wall time, a p99 latency), which have no same-run baseline to divide by. Those sections
 * measure it just before and just after themselves, since other processes come and go.
 */

export interface Machine {
  /** Bare node:http req/s (GET /campaign's answer, the bench's load options). */
  nodeHttpRps: number;
  /** Bare node:http's own CPU time per response, in µs. */
  nodeHttpUsPerRequest: number;
  /** Where the figure comes from: the GET /campaign row, or runs of its own. */
  source: string;
}

/**
 * Bare node:http on the 2-core machine where the time limits were set, quiet (issue 2's last
 * bench, commit c083af9: 43,733 req/s at 22 µs of CPU per response; harness verify 30.7 s).
 */
export const REFERENCE = { nodeHttpRps: 43_700, nodeHttpUsPerRequest: 22 };

/**
 * A time limit as it applies on this machine: scaled up by how much more CPU than on the reference
 * machine bare node:http spent per response here, never scaled down. CPU per response reflects
 * slower cores and, on a shared machine, the cache and core contention that slows everything else
 * too (here 31 to 48 µs while harness verify took 1.6 to 2× its quiet time), whereas req/s also
 * falls with the share of the cores other processes take from the load generator (2 to 5× here).
 * Part of a time is waiting (browser timers, polling) that a faster CPU does not shorten, so a
 * faster machine keeps the limit as stated rather than a stricter one.
 */
export function limitOnThisMachine(limit: number, machine: Machine): number {
  return limit * slowerBy(machine);
}

/** How many times slower than the reference machine this one measured, per response; 1 when faster. */
export function slowerBy(machine: Machine): number {
  return Math.max(1, machine.nodeHttpUsPerRequest / REFERENCE.nodeHttpUsPerRequest);
}

/** Two measurements (before and after a section) taken together. */
export function meanOf(before: Machine, after: Machine, source: string): Machine {
  return { nodeHttpRps: (before.nodeHttpRps + after.nodeHttpRps) / 2, nodeHttpUsPerRequest: (before.nodeHttpUsPerRequest + after.nodeHttpUsPerRequest) / 2, source };
}
