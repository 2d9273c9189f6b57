/**
 * The bench's settings: how long and how hard each load runs, how many times a start is timed,
 * the sessions pre-created per row, where CPU profiles go, and the notes the report carries about
 * how it measured.
 */
import { join } from 'node:path';
import type { LoadOptions } from './load.js';
import { RESULTS_DIR } from './paths.js';

export const LOAD: LoadOptions = { connections: 10, warmupSeconds: 1, seconds: 5, turns: 5 };
/** Issue 7: sustained mixed load, on this many agency keys. */
export const MIXED: LoadOptions = { connections: 10, warmupSeconds: 2, seconds: 30, turns: 3 };
export const MIXED_KEYS = 100;
export const STARTUP_RUNS = 7;
/** Issue 25: the verify again with this many cores kept busy beside it; its verdict must be the quiet run's. */
export const VERIFY_BUSY_CORES = 2;
export const IDLE_SECONDS = 3;
/** A second RSS reading: V8 gives back young-generation space it grew during start only after some idle seconds. */
export const LATER_SECONDS = 10;
/**
 * Pre-created sessions, as a multiple of what the expected pace uses: for the warm-up, the SQLite
 * baseline's warm-up pace (room for an emulator twice as fast); for the run, the emulator's own
 * warm-up pace, with room for a run faster than its warm-up.
 */
export const POOL_MARGIN = { warmup: 2, run: 2 };

export const NOTES = [
  `each server under test runs in a child process of its own; autocannon runs in the parent; the servers of a row warm up, then take turns (${LOAD.turns} turns of ${LOAD.seconds / LOAD.turns} s each, mixed load ${MIXED.turns} of ${MIXED.seconds / MIXED.turns} s), so a busy spell of a shared machine falls on all of them; each warm-up, each row's turns (≤ 2 s) and each start (≤ 3 s) first wait for other processes to go quiet`,
  'emulator: default fixture in a fresh file-backed data folder per request type (SQLite WAL), pino at info level to a file',
  "emulator: spec §8 rate limits RAISED to 1e9 per minute per key and per session (Config.limits), else 3,000/min per key caps a run at 50 req/s",
  'emulator: prize stock and budget raised so every draw keeps following the odds (winners take stock and budget all run long)',
  "baselines answer the emulator's own JSON for the same request, serialized per request; Express with ETag and X-Powered-By off, as in the emulator",
  `mixed load: each connection runs an agency's flow again and again (GET /campaign, POST /sessions, POST /session/entry, GET /session), each time on the next of ${MIXED_KEYS} keys, half sandbox (scenarios won, lost, pending, failed), half production (a journey-issued code exchanged with PKCE, entry with consent); ${MIXED.warmupSeconds} s warm-up + ${MIXED.seconds} s measured; RSS sampled every 250 ms`,
  'start to healthy: the emulator command and two baselines spawned the same way, taking turns: a bare node:http server, and a plain Express + better-sqlite3 app (not bundled) that opens its database in an existing folder, or in a fresh one creates a small schema (4 tables, 2 indexes) and seeds 122 rows in one transaction',
  'targets judge only ratios measured in this run; the time limits (reporting reads, the batch, harness verify) are stated for the reference machine and scaled up (never down) by bare node:http\'s CPU per response measured just before and after each of those sections, over the reference machine\'s',
  'entry rows: every request uses a session of its own, created in the emulator before the warm-up and, sized on the warm-up, before the measured run (production: its own new pack, a code from issueAuthCode exchanged with PKCE through exchangeCode), so each is a first entry, never the idempotent retry',
];

/** BENCH_PROFILE=1 writes a CPU profile of each emulator row's measured run to bench-results/profiles/. */
export const PROFILE_DIR = process.env.BENCH_PROFILE ? join(RESULTS_DIR, 'profiles') : undefined;

/** A line of progress, on stderr. */
export const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);
