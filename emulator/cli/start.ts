/**
 * `emulator start`: checks what it can here (running instance, fixture, data folder), then runs
 * the server in this process (`--foreground`) or in a detached child it waits for.
 */
import { spawn } from 'node:child_process';
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Fixture, FixtureError, loadFixture } from '../fixture.js';
import { inSea } from '../sea.js';
import { CliError } from '../cli-error.js';
import { ensureListenable } from './address.js';
import { ANSWER_WITHIN_MS, control, findRunning, isHealthy, readInstance, waitUntil } from './instance.js';
import { type DataPaths, dataFlag, dataPaths, defaultFixture } from './paths.js';
import { type Env, startSummary, say, sayError, tokenNote } from './print.js';
import { exposureOf } from '../control/exposure.js';
import { CLI } from './paths.js';

export interface StartOptions {
  port: number;
  host: string;
  data: string;
  /** Without one, the built-in default fixture. */
  fixture?: string;
  seed?: string;
  foreground?: boolean;
  watch?: boolean;
  controlToken?: string;
  allowLinkLocalWebhooks?: boolean;
  publicUrl?: string;
}

/** After this long, start says it still waits (a fresh world seeds, a busy machine is slow). */
const SAY_WAITING_AFTER_MS = 10_000;

export async function start(options: StartOptions): Promise<void> {
  const paths = dataPaths(options.data);
  const running = await findRunning(paths);
  if (running) {
    const flag = dataFlag(paths.dir);
    say(`[emulator] already running at ${running.base_url} (pid ${running.pid}) for data folder ${paths.dir}; \`${CLI} env${flag}\` shows its keys, \`${CLI} stop${flag}\` stops it`);
    return;
  }
  const fixturePath = options.fixture === undefined ? defaultFixture() : resolve(options.fixture);
  const fixture = validFixture(fixturePath);
  // Before the folder is made or seeded: a start that cannot listen leaves nothing behind.
  await ensureListenable(options.host, options.port);
  ensureWritableFolder(paths.dir);
  // A fresh folder's world (and its months of history) takes seconds to seed: say why start waits.
  if (!existsSync(paths.database)) say(`[emulator] seeding the world from ${fixturePath} into ${paths.dir}…`);
  if (options.foreground) {
    const { serveForeground } = await import('./foreground.js');
    const { host, port, seed, controlToken, publicUrl } = options;
    return serveForeground({ paths, fixture, fixturePath, host, port, seed, controlToken, publicUrl, watch: options.watch === true, allowLinkLocalWebhooks: options.allowLinkLocalWebhooks === true });
  }
  await startInBackground(options, paths, fixturePath);
}

function validFixture(path: string): Fixture {
  try {
    return loadFixture(path);
  } catch (error) {
    if (error instanceof FixtureError) throw new CliError(`${error.message}; fix it or pass another file with --fixture`);
    throw error;
  }
}

function ensureWritableFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    const reasons: Record<string, string> = { ENOTDIR: 'part of the path is a file', EEXIST: 'it is a file', EACCES: 'permission denied', EPERM: 'permission denied', EROFS: 'read-only file system' };
    const { code, message } = whyNotMade(dir, error as NodeJS.ErrnoException);
    throw new CliError(`[emulator] cannot use data folder ${dir}: ${reasons[code ?? ''] ?? message}; pick a writable folder with --data`);
  }
}

/**
 * A recursive mkdir on a read-only file system fails with ENOENT (Node looks for the parent it
 * could not make): the nearest folder that exists says the real reason, such as EROFS.
 */
function whyNotMade(dir: string, error: NodeJS.ErrnoException): NodeJS.ErrnoException {
  if (error.code !== 'ENOENT') return error;
  let folder = dirname(dir);
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  try {
    accessSync(folder, constants.W_OK);
  } catch (reason) {
    return reason as NodeJS.ErrnoException;
  }
  return error;
}

async function startInBackground(options: StartOptions, paths: DataPaths, fixturePath: string): Promise<void> {
  const args = ['start', '--foreground', '--port', String(options.port), '--host', options.host, '--data', paths.dir, '--fixture', fixturePath];
  if (options.seed !== undefined) args.push('--seed', options.seed);
  if (options.watch) args.push('--watch');
  if (options.allowLinkLocalWebhooks) args.push('--allow-link-local-webhooks');
  if (options.publicUrl) args.push('--public-url', options.publicUrl);
  const output = openSync(paths.output, 'w');
  // The token travels in the environment, not in argv where `ps` would show it.
  const env = options.controlToken ? { ...process.env, EMULATOR_CONTROL_TOKEN: options.controlToken } : process.env;
  // In the single executable, process.execPath is the emulator itself: no script to name.
  const script = inSea ? [] : [process.argv[1]!];
  const child = spawn(process.execPath, [...script, ...args], { detached: true, stdio: ['ignore', output, output], env });
  closeSync(output);

  let exitCode: number | null | undefined;
  const exited = new Promise<void>((done) => child.once('exit', (code) => done(void (exitCode = code))));
  const waiting = setTimeout(() => sayError(`[emulator] still starting (pid ${child.pid}); waiting up to ${ANSWER_WITHIN_MS / 1000} s…`), SAY_WAITING_AFTER_MS);
  const healthy = await waitUntil(async () => {
    const candidate = readInstance(paths);
    return exitCode !== undefined || (candidate !== undefined && candidate.pid === child.pid && (await isHealthy(candidate)));
  }, ANSWER_WITHIN_MS);
  clearTimeout(waiting);
  const instance = readInstance(paths);
  // Exit 0 before answering: another start won the folder first, and the child reported that one.
  if (exitCode === 0) return say(childProblem(paths, exitCode));
  if (exitCode !== undefined) throw new CliError(childProblem(paths, exitCode));
  if (!healthy || !instance) {
    // Gone before this says so: a server left running would hold the folder.
    child.kill('SIGTERM');
    if (!(await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]))) child.kill('SIGKILL');
    await exited;
    throw new CliError(`[emulator] the emulator did not answer within ${ANSWER_WITHIN_MS / 1000} s and was stopped; see ${paths.log}`);
  }
  const values = (await control(instance, 'GET', '/env')) as Env;
  child.unref();
  say(startSummary(values, instance.pid, paths.dir, instance.base_url));
  const exposure = exposureOf(options.host, options.publicUrl);
  if (exposure) say(tokenNote(exposure, !options.controlToken, paths));
}

/** The child's own one-line explanation when it has one, else where to look. */
function childProblem(paths: DataPaths, exitCode: number | null): string {
  const lines = readFileSync(paths.output, 'utf8').split('\n');
  return lines.findLast((line) => line.startsWith('[emulator]')) ?? `[emulator] the emulator stopped before it was ready (exit code ${exitCode}); see ${paths.output}`;
}
