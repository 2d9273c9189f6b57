/** Opens the world and serves it: what `emulator start --foreground` and the tests run. */
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import type { Clock, ClockState } from './clock.js';
import type { Config, Context } from './context.js';
import { SPEC_LIMITS } from './domain/limits.js';
import { createEventBus } from './events.js';
import type { Fixture } from './fixture.js';
import { type Db, getMeta, openDb } from './store/db.js';
import { flushInteractions } from './store/interaction-rows.js';
import { restoreClock } from './store/saved-clock.js';
import { serveBornWithPrototypes } from './fast-path/serve.js';
import { commitTurnTransaction } from './fast-path/turn-transaction.js';
import { isSeeded, seedWorld } from './store/world.js';
import { resumeBatchJobs } from './use-cases/reporting/batch-job.js';
import { startWebhooks } from './webhooks/dispatcher.js';
import { guardConfig } from './control/exposure.js';

export interface WorldOptions {
  fixture: Fixture;
  /** Overrides the fixture's seed. */
  seed?: string;
  /** A folder for the database, or `:memory:`. */
  data: string;
  clock?: ClockState;
  config?: Partial<Config>;
  logger: Logger;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

/**
 * Opens (and on first use seeds) the database; the clock's offset persists with the data. Throws a
 * SavedClockError when the saved clock is out of range.
 */
export function openWorld(options: WorldOptions): Context & { fixture: Fixture } {
  let world: { seed: string; clock: Clock } | { problem: unknown } | undefined;
  const db = openDatabase(options.data, (db) => {
    try {
      const seed = getMeta(db, 'seed') ?? options.seed ?? options.fixture.seed;
      const clock = restoreClock(db, options.clock);
      if (!isSeeded(db)) seedWorld(db, options.fixture, seed, clock.now());
      world = { seed, clock };
    } catch (problem) {
      world = { problem };
    }
  });
  if ('problem' in world!) {
    db.close();
    throw world.problem;
  }
  const { seed, clock } = world!;
  const config: Config = { limits: SPEC_LIMITS, ...options.config, baseUrl: options.config?.publicUrl ?? options.config?.baseUrl ?? DEFAULT_BASE_URL };
  return { db, clock, seed, logger: options.logger, config, fixture: options.fixture, events: createEventBus() };
}

function openDatabase(data: string, setUp: (db: Db) => void): Db {
  if (data === ':memory:') return openDb(':memory:', setUp);
  mkdirSync(data, { recursive: true });
  return openDb(join(data, 'emulator.sqlite'), setUp);
}

export interface Running {
  server: Server;
  /** What the emulator advertises (its public URL when it has one). */
  baseUrl: string;
  /** Where it listens. */
  localUrl: string;
  world: Context & { fixture: Fixture };
  close(): Promise<void>;
}

/** Listens on host:port (port 0 picks a free one); rejects with the listen error, e.g. EADDRINUSE. */
export function startServer(options: WorldOptions & { host: string; port: number }): Promise<Running> {
  const world = openWorld({ ...options, config: { ...options.config, ...guardConfig(options.host, options.config) } });
  return new Promise((resolve, reject) => {
    const server = serveBornWithPrototypes(createApp(world), RECEIVE_TIMEOUTS);
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.listen(options.port, options.host);
    server.once('error', (error) => {
      world.db.close();
      reject(error);
    });
    server.once('listening', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      world.config.localUrl = `http://${host}:${port}`;
      const baseUrl = options.config?.publicUrl ?? options.config?.baseUrl ?? world.config.localUrl;
      world.config.baseUrl = baseUrl;
      const webhooks = startWebhooks(world);
      resumeBatchJobs(world);
      const close = () =>
        new Promise<void>((done) => {
          void webhooks.stop();
          server.closeAllConnections();
          server.close(() => {
            commitTurnTransaction(world.db);
            flushInteractions(world.db);
            world.db.close();
            done();
          });
        });
      resolve({ server, baseUrl, localUrl: world.config.localUrl, world, close });
    });
  });
}

/**
 * Every route's backstop for a request that never finishes arriving (Node's defaults wait 300 s):
 * its headers within 10 s, all of it within 30 s, checked every 2 s; Node then answers 408 and
 * closes. The APIs refuse a stalled body sooner, with their own JSON 408 (http.ts).
 */
const RECEIVE_TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 2_000 };
/**
 * How long an idle kept-alive connection stays open (Node's default is 5 s). A client reuses one
 * until shortly before the time the server announces; on a busy machine its timer runs late, and a
 * request sent as the server closes the connection fails with ECONNRESET. Clients here (the harness,
 * tests, an agency's backend) pause between calls for seconds, rarely for a minute.
 */
const KEEP_ALIVE_MS = 65_000;
