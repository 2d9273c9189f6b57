/** Opens the world and serves it: what `emulator start --foreground` and the tests run. */
import { mkdirSync } from 'node:fs';
import { IncomingMessage, type Server, ServerResponse, createServer } from 'node:http';
import { join } from 'node:path';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import type { Clock, ClockState } from './clock.js';
import type { Config, Context } from './context.js';
import { SPEC_LIMITS } from './domain/limits.js';
import { createEventBus } from './events.js';
import type { Fixture } from './fixture.js';
import { type Db, getMeta, openDb } from './store/db.js';
import { flushInteractions } from './store/interactions.js';
import { restoreClock } from './store/saved-clock.js';
import { commitTurnTransaction } from './store/turn-transaction.js';
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
  const world = openWorld(options);
  return new Promise((resolve, reject) => {
    const server = serve(createApp(world)).listen(options.port, options.host);
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
 * An HTTP server whose requests and responses are born with the app's prototypes. Express gives
 * each of them its own with Object.setPrototypeOf, which then costs more than all the rest of
 * Express: V8 moves the objects to new shapes, and property accesses on them (Node's own included)
 * stop being fast. Born with those prototypes, that call changes nothing: about 80 µs less per
 * request. Node's IncomingMessage and ServerResponse are plain constructor functions, which these
 * call on the new object; were they ever classes, the server would be the usual one. Kept for
 * the bench's guards (decisions/013).
 */
function serve(app: Express): Server {
  const constructors = [IncomingMessage, ServerResponse] as unknown as Array<(this: object, ...args: unknown[]) => void>;
  if (constructors.some((constructor) => Function.prototype.toString.call(constructor).startsWith('class'))) return createServer(RECEIVE_TIMEOUTS, app);
  const [incoming, outgoing] = constructors as [(this: object, ...args: unknown[]) => void, (this: object, ...args: unknown[]) => void];
  function Request(this: object, ...args: unknown[]): void {
    incoming.apply(this, args);
  }
  Request.prototype = app.request;
  function Response(this: object, ...args: unknown[]): void {
    outgoing.apply(this, args);
  }
  Response.prototype = app.response;
  return createServer({ ...RECEIVE_TIMEOUTS, IncomingMessage: Request as unknown as typeof IncomingMessage, ServerResponse: Response as unknown as typeof ServerResponse }, app);
}

/**
 * Every route's backstop for a request that never finishes arriving (Node's defaults wait 300 s):
 * its headers within 10 s, all of it within 30 s, checked every 2 s; Node then answers 408 and
 * closes. The APIs refuse a stalled body sooner, with their own JSON 408 (http.ts).
 */
const RECEIVE_TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 2_000 };
