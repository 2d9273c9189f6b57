/**
 * Where `verify` and `doctor` point: the agency's callback and preview URLs, the emulator, the
 * promotion; from the flags first, then harness.config.json, then the defaults.
 */
import { resolve } from 'node:path';
import { checkCallbackUrl, isRefused } from '../emulator/wire-contract.js';
import { type Config, emulatorFromEnv, loadConfig } from './config.js';
import { EmulatorClient } from './emulator-client/client.js';
import { HarnessError } from './errors.js';

/** Where the run points: flags first, then harness.config.json, then the defaults. */
export interface TargetOptions {
  callback?: string;
  preview?: string;
  emulator?: string;
  config?: string;
  /** The emulator's control token, when it runs off loopback with --control-token. */
  controlToken?: string;
  /** The promotion to verify, by id or slug; without it, the one the callback URL is registered on, else the default. */
  promotion?: string;
}

export interface Target {
  config: Config;
  /** Undefined when neither a flag nor the config names one: `doctor` checks the rest, `verify` cannot run. */
  callback: string | undefined;
  preview: string | undefined;
  promotion: string | undefined;
  client: EmulatorClient;
}

/** harness.config.json (the one given, else ./harness.config.json, else the defaults), its paths resolved against its folder. */
export function resolveConfig(file: string | undefined): { config: Config } {
  const { config, base } = loadConfig(file);
  return { config: { ...config, agency_log: config.agency_log && resolve(base, config.agency_log), scenarios: config.scenarios.map((folder) => resolve(base, folder)) } };
}

export const NO_CALLBACK = 'no callback URL: pass --callback URL (the production callback URL of the agency)';

/** The target of `verify` and `doctor`; a malformed URL is a HarnessError. */
export function resolveTarget(options: TargetOptions): Target {
  const { config } = resolveConfig(options.config);
  const callback = options.callback ?? config.callback;
  const preview = options.preview ?? config.preview;
  const emulator = options.emulator ?? config.emulator ?? emulatorFromEnv();
  for (const [name, url] of [['callback', callback], ['preview', preview], ['emulator', emulator]] as const) {
    if (url !== undefined && !/^https?:\/\/[^/]/.test(url)) throw new HarnessError(`--${name} ${url} is not an http(s) URL`);
  }
  // The console's own rule: https on any host, plain http only on a loopback host.
  for (const [name, url] of [['callback', callback], ['preview', preview]] as const) {
    const check = url === undefined ? undefined : checkCallbackUrl(url);
    if (check && isRefused(check)) throw new HarnessError(`--${name} ${url} ${check.refused}`);
  }
  return { config, callback, preview, promotion: options.promotion ?? config.promotion, client: new EmulatorClient(emulator, options.controlToken ?? config.control_token) };
}
