import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { Limits } from './domain/limits.js';
import type { EventBus } from './events.js';
import type { Db } from './store/db.js';


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
  /**
   * Why callers other than this machine's can reach the emulator (a public URL, a bind address
   * that is not loopback); then every control call needs `controlToken`, loopback ones too.
   */
  exposure?: string;
  /** How long an API request's body may take to arrive after its headers (default 10 s, http.ts). */
  bodyTimeoutMs?: number;
  /** `--allow-link-local-webhooks`: webhooks may go where cloud metadata services answer, 169.254.0.0/16, fe80::/10 and others (webhooks/link-local.ts). */
  allowLinkLocalWebhooks?: boolean;
}

/** Everything a handler needs, passed explicitly; the connection's own state lives on the connection (`db.state`, store/connection.ts; decisions/013). */
export interface Context {
  db: Db;
  clock: Clock;
  seed: string;
  logger: Logger;
  config: Config;
  events: EventBus;
}
