/** Where things live: the package's own files and an emulator's data folder. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Option } from 'commander';
import { assetFile, assetText, inSea } from '../sea.js';

export const DEFAULT_DATA = '.emulator';
/** `--data`, on every command that finds an emulator by its folder; EMULATOR_DATA saves repeating it. */
export const dataOption = () => new Option('--data <dir>', 'the data folder: database, logs, instance file').env('EMULATOR_DATA').default(DEFAULT_DATA);

/** How hints name the CLI: the single executable is its own command. */
export const CLI = inSea ? 'emulator' : 'npx emulator';

/** The folder holding package.json; found by walking up, so it is the same from `emulator/` and `dist/emulator/`. */
export function packageRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error('promo-emulator: package.json not found above the CLI');
    folder = parent;
  }
  return folder;
}

/** In the single executable these come from its assets (emulator/sea.ts). */
export function packageVersion(): string {
  const text = inSea ? assetText('package.json') : readFileSync(join(packageRoot(), 'package.json'), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

export function defaultFixture(): string {
  return inSea ? assetFile('default.json') : join(packageRoot(), 'fixtures', 'default.json');
}

export interface DataPaths {
  dir: string;
  /** The SQLite database the emulator serves (emulator/server.ts opens it). */
  database: string;
  /** The running instance: pid and URLs, written once it listens, removed when it stops. */
  instance: string;
  /** JSON logs, secrets redacted. */
  log: string;
  /** What a background emulator prints: its one-line error if it fails to start. */
  output: string;
  /** The secret `webhooks listen` signs forwarded deliveries with. */
  listenSecret: string;
  /** Held by the process that serves the folder, for its whole life (folder-lock.ts). */
  lock: string;
  /** The pid of the process holding the lock. */
  lockOwner: string;
}

export function dataPaths(data: string): DataPaths {
  const dir = resolve(data);
  return { dir, database: join(dir, 'emulator.sqlite'), instance: join(dir, 'instance.json'), log: join(dir, 'emulator.log'), output: join(dir, 'emulator.out'), listenSecret: join(dir, 'listen-secret'), lock: join(dir, 'emulator.lock'), lockOwner: join(dir, 'emulator.pid') };
}

/** The `--data` flag to repeat in hints, empty for the default folder. */
export function dataFlag(dir: string): string {
  return dir === resolve(DEFAULT_DATA) ? '' : ` --data ${dir}`;
}
