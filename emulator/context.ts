import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { EventBus } from './events.js';
import type { Db } from './store/db.js';

export interface Limits {
  /** @see spec §8: experience requests per minute per consumer session */
  perSession: number;
  /** @see spec §8: experience requests per minute per campaign key */
  perKey: number;
  windowMs: number;
}

export const SPEC_LIMITS: Limits = { perSession: 60, perKey: 3000, windowMs: 60_000 };

export interface Config {
  /**
   * The origin the emulator advertises: journey pages, `authorize_url`, links, CSV and webhook
   * payloads. The bind address unless `--public-url` names another, e.g. a tunnel or Docker's host port.
   */
  baseUrl: string;
  /** The origin this process listens on, for calls it makes to itself (the CLI, deliveries to its own sinks). */
  localUrl?: string;
  /** `--public-url`: when set, `baseUrl` is this. */
  publicUrl?: string;
  limits: Limits;
  /** Token that lets non-loopback callers use the control plane; none means loopback only. */
  controlToken?: string;
}

/** Everything a handler needs, passed explicitly: no module-level state. */
export interface Context {
  db: Db;
  clock: Clock;
  seed: string;
  logger: Logger;
  config: Config;
  events: EventBus;
}
