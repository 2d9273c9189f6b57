/**
 * The single executable (`npm run build:sea`, scripts/build-sea.mjs) carries the files the CLI reads
 * at runtime as assets: package.json, the default fixture, better-sqlite3's native binding and the
 * API reference's Swagger UI.
 * Everywhere else `inSea` is false and the CLI reads the installed package.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from './cli-error.js';

type Sea = typeof import('node:sea');

// node:sea exists from Node 20.12; the engines range starts lower. Any path serves to require a builtin.
const sea = isBuiltin('node:sea') ? (createRequire(process.execPath)('node:sea') as Sea) : undefined;

export const inSea = sea?.isSea() === true;

export function assetText(name: string): string {
  return sea!.getAsset(name, 'utf8');
}

/**
 * The asset as a file, for APIs that only take a path. Written once per content (the name carries
 * its hash) into a folder only this user can write to, as the native binding is loaded from there.
 */
export function assetFile(name: string): string {
  const bytes = new Uint8Array(sea!.getRawAsset(name) as ArrayBuffer);
  const file = join(privateFolder(), `${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}-${name}`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, bytes, { mode: 0o600 });
    renameSync(partial, file);
  }
  return file;
}

/** What better-sqlite3's `require('bindings')(name)` returns; scripts/build-sea.mjs routes that call here. */
export function nativeAddon(name: string): unknown {
  const module = { exports: {} };
  process.dlopen(module, assetFile(name));
  return module.exports;
}

function privateFolder(): string {
  const uid = process.getuid!();
  const dir = join(tmpdir(), `promo-emulator-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) {
    throw new CliError(`[emulator] ${dir} must be a folder of your own that no one else can open; remove it, or set TMPDIR to another folder`);
  }
  return dir;
}
