/**
 * The built `emulator start --foreground` as a child process, for the hardening tests that need a
 * real process: one to SIGKILL, one beside another on the same data folder, one bound to 0.0.0.0.
 * `npm test` builds dist/ first (pretest); run `npm run build` before running these files alone.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Fixture } from '../../emulator/fixture.js';
import { connect, type Db } from '../../emulator/store/connection.js';
import { csrfOf } from '../journey/support.js';
import { DEFAULT_FIXTURE } from '../world.js';

const CLI = fileURLToPath(new URL('../../dist/emulator/cli.js', import.meta.url));
const HEALTHY_WITHIN_MS = 15_000;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready, fail) => server.listen(0, '127.0.0.1', ready).once('error', fail));
  const { port } = server.address() as { port: number };
  await new Promise((closed) => server.close(closed));
  return port;
}

/** A temp folder holding a fixture file (the default one, changed as asked) and room for a data folder. */
export function scratchFolder(change: (fixture: Fixture) => Fixture = (fixture) => fixture) {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-hardening-'));
  const fixture = join(dir, 'fixture.json');
  writeFileSync(fixture, JSON.stringify(change(structuredClone(DEFAULT_FIXTURE))));
  return { dir, fixture, data: join(dir, 'data'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `count` collectors in an eligible country (DE), for tests that need many different people. */
export function withCollectors(count: number, domain: string) {
  return (fixture: Fixture): Fixture => ({
    ...fixture,
    collectors: [
      ...fixture.collectors,
      ...Array.from({ length: count }, (_, index) => ({ email: `c${index}@${domain}`, country: 'DE', city: 'Berlin', tester: false })),
    ],
  });
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface EmulatorProcess {
  child: ChildProcess;
  /** Where this test reaches it: always loopback, also when bound to 0.0.0.0. */
  baseUrl: string;
  port: number;
  exited: Promise<Exit>;
  /** What it printed, for failure messages. */
  output(): string;
  /** The control plane's `Authorization` header, when the emulator asks for its token (bound off loopback, or a public URL). */
  control(): Record<string, string>;
  /** SIGTERM (a clean stop) or SIGKILL (a crash); resolves once it has exited. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<Exit>;
}

/**
 * Spawns the emulator in the foreground and resolves once its health answers, or rejects with its
 * output. A port found free can be taken by another test's process before the emulator binds it:
 * then the start is made again on another port, three times at most (a start, never an assertion).
 */
export async function startEmulator(options: { data: string; fixture?: string; host?: string; args?: string[]; node?: string[] }): Promise<EmulatorProcess> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const args = ['start', '--foreground', '--data', options.data, '--port', String(port), '--host', options.host ?? '127.0.0.1'];
    if (options.fixture) args.push('--fixture', options.fixture);
    try {
      return await spawnServer([...(options.node ?? []), CLI, ...args, ...(options.args ?? [])], port, options.data);
    } catch (error) {
      if (attempt === 3 || !String(error).includes(`port ${port} on`) || !String(error).includes('is already in use')) throw error;
    }
  }
}

/**
 * A second emulator on a data folder the CLI already serves (`start` refuses to start twice on
 * one folder), running the built server directly, quiet.
 */
export async function startSecondServer(options: { data: string; fixture: string }): Promise<EmulatorProcess> {
  const port = await freePort();
  const built = (path: string) => JSON.stringify(new URL(`../../dist/emulator/${path}`, import.meta.url).href);
  const serve = `
    const { startServer } = await import(${built('server.js')});
    const { loadFixture } = await import(${built('fixture.js')});
    const { createLogger } = await import(${built('logger.js')});
    const [fixture, data, port] = process.argv.slice(1);
    await startServer({ fixture: loadFixture(fixture), data, host: '127.0.0.1', port: Number(port), logger: createLogger('emulator', { level: 'silent' }) });`;
  return spawnServer(['--input-type=module', '-e', serve, options.fixture, options.data, String(port)], port);
}

/** The control token the emulator keeps in its data folder's instance file (the CLI's way), if any. */
function controlHeader(data: string | undefined): Record<string, string> {
  try {
    const { control_token: token } = JSON.parse(readFileSync(join(data!, 'instance.json'), 'utf8')) as { control_token?: string };
    return token ? { authorization: `Bearer ${token}` } : {};
  } catch {
    return {};
  }
}

async function spawnServer(args: string[], port: number, data?: string): Promise<EmulatorProcess> {
  const env = { ...process.env };
  delete env.EMULATOR_CONTROL_TOKEN;
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<Exit>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const running: EmulatorProcess = {
    child, port, exited, baseUrl: `http://127.0.0.1:${port}`, output: () => output, control: () => controlHeader(data),
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  try {
    await waitHealthy(running);
  } catch (error) {
    await running.stop('SIGKILL');
    throw error;
  }
  return running;
}

async function waitHealthy(running: EmulatorProcess): Promise<void> {
  let gone = false;
  void running.exited.then(() => (gone = true));
  const deadline = performance.now() + HEALTHY_WITHIN_MS;
  while (performance.now() < deadline && !gone) {
    try {
      const res = await fetch(`${running.baseUrl}/_emulator/health`, { headers: running.control(), signal: AbortSignal.timeout(1000) });
      if (res.ok && ((await res.json()) as { pid?: number }).pid === running.child.pid) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((later) => setTimeout(later, 25));
  }
  throw new Error(`the emulator did not become healthy${gone ? ' (it exited)' : ` within ${HEALTHY_WITHIN_MS} ms`}:\n${running.output()}`);
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One run of the built `emulator` command, to its end. */
export function runCli(...args: string[]): Promise<CliRun> {
  return runCliWith({}, ...args);
}

/** The CLI with these environment variables set (and the control token and public URL unset unless given). */
export function runCliWith(variables: Record<string, string>, ...args: string[]): Promise<CliRun> {
  return spawnCli(variables, ...args).ran;
}

/** The CLI as a running child (to signal, or to close its output early), and its run once it has ended. */
export function spawnCli(variables: Record<string, string>, ...args: string[]): { child: ChildProcess; ran: Promise<CliRun> } {
  const env = { ...process.env };
  delete env.EMULATOR_CONTROL_TOKEN;
  delete env.EMULATOR_PUBLIC_URL;
  Object.assign(env, variables);
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return { child, ran: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))) };
}

/** Resolves once the CLI finds the emulator of `data`: its instance file is written just after health first answers. */
export async function instanceWritten(data: string): Promise<void> {
  const deadline = performance.now() + HEALTHY_WITHIN_MS;
  while ((await runCli('status', '--data', data)).code !== 0) {
    if (performance.now() > deadline) throw new Error(`no emulator found for ${data} by \`emulator status\``);
    await new Promise((later) => setTimeout(later, 50));
  }
}

/** A connection of this test to an emulator's database, beside the emulators' own. */
export function openData(data: string, options: { readonly?: boolean } = {}): Db {
  const db = connect(join(data, 'emulator.sqlite'), { readonly: options.readonly ?? false });
  db.pragma('busy_timeout = 5000');
  return db;
}

/** An experience API call over the network, as an agency backend makes it. */
export function experienceCall(baseUrl: string, key: string, method: 'GET' | 'POST', path: string, options: { session?: string; body?: object } = {}) {
  return fetch(`${baseUrl}/api/experience/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(options.session ? { 'x-service-session': options.session } : {}) },
    body: options.body && JSON.stringify(options.body),
  });
}

/** A browser's cookies, kept by hand: fetch has no cookie jar. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  keep(res: Response): Response {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  }

  get header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  values(): string[] {
    return [...this.cookies.values()].map((value) => decodeURIComponent(value));
  }
}

/** Signs a browser in as the collector through the real sign-in page; returns its cookies. */
export async function signInBrowser(baseUrl: string, collectorId: number): Promise<CookieJar> {
  const jar = new CookieJar();
  const form = await jar.keep(await fetch(`${baseUrl}/sign-in`)).text();
  const res = jar.keep(
    await fetch(`${baseUrl}/sign-in`, {
      method: 'POST', redirect: 'manual',
      headers: { cookie: jar.header, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: csrfOf(form), collector_id: String(collectorId), next: '/promotions' }),
    }),
  );
  if (res.status !== 303) throw new Error(`sign-in failed: ${res.status}`);
  return jar;
}

/** Whether this test may mount a file system (a tmpfs of a given size or read-only): only as root with mount(8). */
export const mountable = (() => {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
