/**
 * Whether the emulator is told it is reachable from elsewhere than this machine: a public URL, or
 * a bind address that is not loopback. Then its control plane asks every caller for the control
 * token (guard.ts), and one is made when none was given, kept where the CLI finds it.
 */
import { randomBytes } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { Config } from '../context.js';

function loopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (bare.toLowerCase() === 'localhost') return true;
  if (!ipaddr.isValid(bare)) return false;
  const address = ipaddr.process(bare);
  return address.range() === 'loopback';
}

/** Why the emulator is reachable from elsewhere, or undefined when only this machine reaches it. */
export function exposureOf(host: string, publicUrl: string | undefined): string | undefined {
  if (publicUrl) return `its public URL is ${publicUrl}`;
  return loopbackHost(host) ? undefined : `it listens on ${host || 'every address'}, not on loopback only`;
}

/** The guard's part of the config for this bind: the exposure, and a control token made for it when none was given. */
export function guardConfig(host: string, config: Partial<Config> | undefined): Pick<Config, 'exposure' | 'controlToken'> {
  const exposure = exposureOf(host, config?.publicUrl);
  const controlToken = config?.controlToken || (exposure ? randomBytes(24).toString('base64url') : undefined);
  return { ...(exposure ? { exposure } : {}), ...(controlToken ? { controlToken } : {}) };
}
