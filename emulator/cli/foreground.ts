/** `emulator start --foreground`: serves in this process until SIGINT or SIGTERM. What Docker runs. */
import type { AddressInfo } from 'node:net';
import { type Logger, multistream, type StreamEntry } from 'pino';
import { envValues } from '../use-cases/control/env-values.js';
import type { Fixture } from '../fixture.js';
import { PRETTY_IGNORE, createLogger, logFile } from '../logger.js';
import { type Running, startServer } from '../server.js';
import { DamagedDatabase } from '../store/db.js';
import { SavedClockError } from '../store/saved-clock.js';
import { restoreHeapGrowth } from './heap.js';
import { CliError } from '../cli-error.js';
import { addressProblem } from './address.js';
import { FolderInUse, folderHolder, holdFolderLock } from './folder-lock.js';
import { type Instance, readInstance, removeInstance, writeInstance } from './instance.js';
import { CLI, type DataPaths, dataFlag } from './paths.js';
import { endOnClosedOutput, startSummary, say, tokenNote } from './print.js';

export interface ServeOptions {
  paths: DataPaths;
  fixture: Fixture;
  fixturePath: string;
  host: string;
  port: number;
  seed?: string;
  watch: boolean;
  controlToken?: string;
  allowLinkLocalWebhooks: boolean;
  /** `--public-url`: what pages, links and payloads carry instead of the bind address. */
  publicUrl?: string;
}

const WILDCARD_HOSTS: Record<string, string> = { '0.0.0.0': '127.0.0.1', '::': '[::1]', '': '127.0.0.1' };

export async function serveForeground(options: ServeOptions): Promise<void> {
  const { paths } = options;
  endOnClosedOutput('keep-running');
  takeFolder(paths);
  const terminal = process.stdout.isTTY === true;
  const logger = await runLogger(paths.log, terminal);
  const running = await listen(options, logger);
  restoreHeapGrowth();
  const { port } = running.server.address() as AddressInfo;
  const loopback = WILDCARD_HOSTS[options.host];
  // Bound to every interface: the CLI calls, and without a public URL pages carry, the loopback address, not 0.0.0.0.
  const localUrl = loopback ? `http://${loopback}:${port}` : running.localUrl;
  running.world.config.localUrl = localUrl;
  if (!options.publicUrl) running.world.config.baseUrl = localUrl;
  const baseUrl = running.world.config.baseUrl;

  const watcher = options.watch ? await (await import('./watch.js')).watchFixture(options.fixturePath, running.world) : undefined;
  const instance: Instance = {
    pid: process.pid, base_url: localUrl,
    ...(options.publicUrl ? { public_url: options.publicUrl } : {}),
    ...(running.world.config.controlToken ? { control_token: running.world.config.controlToken } : {}),
    fixture: options.fixturePath, started_at: new Date(performance.timeOrigin).toISOString(),
  };
  writeInstance(paths, instance);
  if (running.world.seed !== (options.seed ?? options.fixture.seed)) {
    logger.warn(`${paths.dir} was seeded with another seed, which it keeps; use a fresh --data folder for a new seed`);
  }
  const publicNote = baseUrl === localUrl ? '' : `, public URL ${baseUrl}`;
  say(terminal ? startSummary(envValues(running.world), process.pid, paths.dir, localUrl) : `[emulator] running at ${localUrl} (pid ${process.pid}${publicNote})`);
  const { exposure } = running.world.config;
  if (exposure) say(tokenNote(exposure, !options.controlToken, paths));
  logger.info({ base_url: baseUrl, local_url: localUrl, data: paths.dir, fixture: options.fixturePath, watch: options.watch }, 'emulator started');

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'emulator stopping');
    await watcher?.close();
    await running.close();
    removeInstance(paths, process.pid);
    process.exit(0);
  };
  process.on('SIGINT', stop).on('SIGTERM', stop);
}

/** The folder's lock, first of all (folder-lock.ts): a second emulator is refused before it touches the log or the database. */
function takeFolder(paths: DataPaths): void {
  try {
    holdFolderLock(paths);
  } catch (error) {
    if (!(error instanceof FolderInUse)) throw error;
    const owner = folderHolder(paths)?.pid;
    const instance = readInstance(paths);
    const running = instance && instance.pid === owner ? `the emulator at ${instance.base_url} (pid ${owner})` : `another emulator${owner ? ` (pid ${owner})` : ''}, still starting`;
    throw new CliError(`[emulator] data folder ${paths.dir} is in use by ${running}; stop it with \`${CLI} stop${dataFlag(paths.dir)}\` or pick another folder with --data`);
  }
}

/** JSON lines to the data folder's log file, and readable lines to a terminal when there is one. */
async function runLogger(file: string, terminal: boolean): Promise<Logger> {
  const streams: StreamEntry[] = [{ stream: logFile(file) }];
  if (terminal) {
    const { default: pretty } = await import('pino-pretty');
    streams.push({ stream: pretty({ colorize: !process.env.NO_COLOR, ignore: PRETTY_IGNORE }) });
  }
  return createLogger('emulator', {}, multistream(streams));
}

async function listen(options: ServeOptions, logger: Logger): Promise<Running> {
  try {
    return await startServer({
      fixture: options.fixture, seed: options.seed, data: options.paths.dir, logger, host: options.host, port: options.port,
      config: { ...(options.controlToken ? { controlToken: options.controlToken } : {}), ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}), allowLinkLocalWebhooks: options.allowLinkLocalWebhooks },
    });
  } catch (error) {
    throw new CliError(listenProblem(error as NodeJS.ErrnoException, options));
  }
}

function listenProblem(error: NodeJS.ErrnoException, { host, port, paths }: ServeOptions): string {
  if (error instanceof SavedClockError) return `[emulator] the virtual clock saved in ${paths.dir} ${error.message}; run \`${CLI} clock reset${dataFlag(paths.dir)}\` to go back to system time, then start again`;
  const address = addressProblem(error, host, port);
  if (address) return address;
  if (error instanceof DamagedDatabase) {
    return `[emulator] the database in ${paths.dir} is damaged (${error.message}); restore ${paths.database} from a backup, or move it away to start on a fresh world seeded from the fixture`;
  }
  if (error.code?.startsWith('SQLITE_')) return `[emulator] cannot open the database in ${paths.dir} (${error.message}); remove the folder or pick another with --data`;
  return `[emulator] cannot start on ${host}:${port}: ${error.message}`;
}
