/** Opens the world and serves it: what `emulator start --foreground` and the tests run. */
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import { type Clock, type ClockState, createClock } from './clock.js';
import { type Config, type Context, SPEC_LIMITS } from './context.js';
import { createEventBus } from './events.js';
import type { Fixture } from './fixture.js';
import { type Db, getMeta, openDb, setMeta } from './store/db.js';
import { isSeeded, seedWorld } from './store/world.js';
import { resumeBatchJobs } from './reporting/batch-job.js';
import { startWebhooks } from './webhooks/dispatcher.js';

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

/** Opens (and on first use seeds) the database; the clock's offset persists with the data. */
export function openWorld(options: WorldOptions): Context & { fixture: Fixture } {
  const db = openDatabase(options.data);
  const seed = getMeta(db, 'seed') ?? options.seed ?? options.fixture.seed;
  const clock = restoreClock(db, options.clock);
  if (!isSeeded(db)) seedWorld(db, options.fixture, seed, clock.now());
  const config: Config = { baseUrl: DEFAULT_BASE_URL, limits: SPEC_LIMITS, ...options.config };
  return { db, clock, seed, logger: options.logger, config, fixture: options.fixture, events: createEventBus() };
}

function openDatabase(data: string): Db {
  if (data === ':memory:') return openDb(':memory:');
  mkdirSync(data, { recursive: true });
  return openDb(join(data, 'emulator.sqlite'));
}

function restoreClock(db: Db, requested: ClockState | undefined): Clock {
  const saved = getMeta(db, 'clock');
  const clock = createClock(requested ?? (saved ? (JSON.parse(saved) as ClockState) : { mode: 'real' }));
  clock.onChange((state) => setMeta(db, 'clock', JSON.stringify(state)));
  return clock;
}

export interface Running {
  server: Server;
  baseUrl: string;
  world: Context & { fixture: Fixture };
  close(): Promise<void>;
}

/** Listens on host:port (port 0 picks a free one); rejects with the listen error, e.g. EADDRINUSE. */
export function startServer(options: WorldOptions & { host: string; port: number }): Promise<Running> {
  const world = openWorld(options);
  return new Promise((resolve, reject) => {
    const server = createApp(world).listen(options.port, options.host);
    server.once('error', (error) => {
      world.db.close();
      reject(error);
    });
    server.once('listening', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      const baseUrl = options.config?.baseUrl ?? `http://${host}:${port}`;
      world.config.baseUrl = baseUrl;
      const webhooks = startWebhooks(world);
      resumeBatchJobs(world);
      const close = () =>
        new Promise<void>((done) => {
          void webhooks.stop();
          server.closeAllConnections();
          server.close(() => {
            world.db.close();
            done();
          });
        });
      resolve({ server, baseUrl, world, close });
    });
  });
}
