/**
 * How fast this machine is, as this run measured it: bare `node:http` answering GET /campaign's JSON
 * under the bench's load. Ratio targets need no such figure; it is printed next to the absolute
 * figures so a reader can scale them, and it scales the few limits that are times by nature
 * (a wall time, a p99 latency), which have no same-run baseline to divide by.
 */

export interface Machine {
  /** Bare node:http req/s in this run (GET /campaign's answer, the bench's load options). */
  nodeHttpRps: number;
  /** Where the figure comes from: the GET /campaign row, or a run of its own in a partial bench. */
  source: string;
}

/**
 * Bare node:http req/s on the 2-core machine where the time limits were set, quiet (issue 2's last
 * bench, commit c083af9: 43,733 req/s, harness verify 30.7 s). Issue 17 saw a machine 2.5× slower
 * serve 15,500.
 */
export const REFERENCE_NODE_HTTP_RPS = 43_700;

/**
 * A time limit as it applies on this machine: scaled up by how much slower than the reference this
 * run measured the machine (slower hardware, or other processes taking its cores), never scaled
 * down. Part of such a time is waiting (browser timers, polling) that a faster CPU does not shorten,
 * so a faster machine keeps the limit as stated rather than a stricter one.
 */
export function limitOnThisMachine(limit: number, machine: Machine): number {
  return limit * slowerBy(machine);
}

/** How many times slower than the reference machine this run measured this one; 1 when faster. */
export function slowerBy(machine: Machine): number {
  return Math.max(1, REFERENCE_NODE_HTTP_RPS / machine.nodeHttpRps);
}
