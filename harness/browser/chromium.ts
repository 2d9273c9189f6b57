/**
 * Finds a Chromium and launches it headless on a locked-down machine. The search order:
 * HARNESS_CHROMIUM, Playwright's own browsers, the system's; then, when asked to,
 * `playwright install chromium`, then on Debian as root `apt-get install -y chromium`; otherwise
 * one line saying how to get one. The one finder of the project: tests re-export it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { HarnessError } from '../errors.js';
import { chromiumProcesses, residentBytes } from './processes.js';

/**
 * The features playwright-core (pinned at 1.64.1) disables in every Chromium it launches. Chromium
 * honours only the last `--disable-features`, and Playwright puts the caller's arguments after its
 * own, so a harness that disables more must repeat these (test/harness/chromium.test.ts keeps the
 * copy in step with the Playwright installed).
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'DialMediaRouteProvider', 'GlobalMediaControls', 'HttpsUpgrades', 'LensOverlay', 'MediaRouter',
  'PaintHolding', 'ThirdPartyStoragePartitioning', 'BlockOriginHeaderModificationOnRedirect', 'AvoidCorsURLLoaderRestartOnRedirect', 'Translate', 'AutoDeElevate',
  'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Browser UI a headless run never shows: Chromium's headless mode is the whole browser, and from
 * version 15x each window loads the address bar's popups as web pages (`chrome://omnibox-popup`),
 * in a renderer of their own. A harness run opens a window per browser context (about 35 a
 * verify), and those renderers cost almost half of what opening one costs. Pages cannot see them.
 */
export const UNSHOWN_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/**
 * Without the background-networking flags Chromium keeps calling out to a network the machine may
 * not have. `AutomationControlled` off: `navigator.webdriver` is false, as in any browser a person
 * uses, so an agency cannot behave well only under test. Each page's script memory is capped, so
 * a page that allocates without end crashes itself (said in the report), not the machine; what the
 * cap does not hold (typed arrays, workers, drawing) the memory guard does (launchChromium).
 * Logging only what is fatal: Chromium otherwise writes every console message of a page whole to
 * its stderr, whose last lines Playwright keeps (an agency's 100 MB message, held until the browser
 * closes). The sandbox is Playwright's `chromiumSandbox` (launchChromium).
 */
export const CHROMIUM_ARGS = [
  '--disable-blink-features=AutomationControlled', '--js-flags=--max-old-space-size=512', '--enable-logging=stderr', '--log-level=3', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNSHOWN_UI_FEATURES].join(',')}`,
];

const SYSTEM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium'];

/**
 * Chromium's headless shell (Debian's chromium-headless-shell; Playwright's own default for
 * headless runs): the same engine without the browser's window, whose toolbar and tab strip a
 * headless Chromium lays out and paints in every context. It cannot run headed, so only the
 * harness's own launches prefer it (decisions/017).
 */
const SYSTEM_HEADLESS_SHELLS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chrome-headless-shell'];

/** What the browser is for: the harness's own headless runs, or any run (a Playwright project may run headed). */
export type BrowserUse = 'headless' | 'any';

/** Whether the finder may install a browser when none is found: tests and the demo do, `harness verify` only with --install-browser. */
export type InstallPolicy = 'attempt' | 'never';

export const HOW_TO_GET_CHROMIUM =
  'no Chromium found: set HARNESS_CHROMIUM to a Chrome or Chromium binary, run `npx playwright install chromium`, or on Debian `apt-get install -y chromium` (as root)';

export interface Candidate {
  source: 'HARNESS_CHROMIUM' | 'playwright' | 'system';
  path: string;
}

/** The candidates in search order, found or not. */
export async function chromiumCandidates(env: NodeJS.ProcessEnv = process.env, use: BrowserUse = 'any'): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  if (env.HARNESS_CHROMIUM) candidates.push({ source: 'HARNESS_CHROMIUM', path: env.HARNESS_CHROMIUM });
  candidates.push({ source: 'playwright', path: await playwrightPath() });
  for (const path of [...(use === 'headless' ? SYSTEM_HEADLESS_SHELLS : []), ...SYSTEM_PATHS]) candidates.push({ source: 'system', path });
  return candidates.filter((candidate) => candidate.path);
}

/** The first candidate that exists. A HARNESS_CHROMIUM that does not exist is an error, not a fallback. */
export async function chromiumPath(env: NodeJS.ProcessEnv = process.env, use: BrowserUse = 'any'): Promise<string> {
  if (env.HARNESS_CHROMIUM && !existsSync(env.HARNESS_CHROMIUM)) {
    throw new HarnessError(`HARNESS_CHROMIUM is ${env.HARNESS_CHROMIUM}, which does not exist: point it at a Chrome or Chromium binary, or unset it`);
  }
  const found = (await chromiumCandidates(env, use)).find((candidate) => existsSync(candidate.path));
  if (!found) throw new HarnessError(HOW_TO_GET_CHROMIUM);
  return found.path;
}

/** The harness's browser in the search order, trying the installs when allowed; `log` hears what is being tried. */
export async function findChromium(options: { install?: InstallPolicy; log?: (line: string) => void } = {}): Promise<string> {
  try {
    return await chromiumPath(process.env, 'headless');
  } catch (error) {
    if (options.install !== 'attempt' || process.env.HARNESS_CHROMIUM) throw error;
  }
  const log = options.log ?? (() => undefined);
  log('[harness] no Chromium found; trying `playwright install chromium`');
  if (tryRun(process.execPath, [playwrightCli(), 'install', 'chromium'])) {
    const installed = await playwrightPath();
    if (installed && existsSync(installed)) return installed;
  }
  if (isDebian() && process.getuid?.() === 0) {
    log('[harness] trying `apt-get install -y chromium`');
    if (tryRun('apt-get', ['update', '-qq']) && tryRun('apt-get', ['install', '-y', '-qq', 'chromium'], { DEBIAN_FRONTEND: 'noninteractive' })) return chromiumPath(process.env, 'headless');
  }
  throw new HarnessError(HOW_TO_GET_CHROMIUM);
}

/** Why a browser runs the agency's pages without Chromium's sandbox, when it does (launchChromium). */
const UNSANDBOXED = new WeakMap<Browser, string>();

/** Why this browser runs pages without Chromium's sandbox; undefined when it sandboxes them. */
export function sandboxOff(browser: Browser): string | undefined {
  return UNSANDBOXED.get(browser);
}

/**
 * Launches the harness's Chromium, its pages sandboxed where the operating system allows it: not as
 * root (Chromium refuses to sandbox as root), and where it can make the sandbox (a container
 * without user namespaces cannot: the launch fails, and is made again without). When it runs
 * without, sandboxOff says why, and the report's notes say it. `rendererLimitMb`: the memory guard's
 * bound (RENDERER_LIMIT_MB unless a test asks for less).
 */
export async function launchChromium(options: { install?: InstallPolicy; log?: (line: string) => void; rendererLimitMb?: number } = { install: 'attempt' }): Promise<Browser> {
  const executablePath = await findChromium(options);
  const { chromium } = await playwright();
  const launch = async (sandbox: boolean) => guardMemory(await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS, chromiumSandbox: sandbox }), options.rendererLimitMb ?? RENDERER_LIMIT_MB);
  if (process.getuid?.() === 0) return unsandboxed(await launch(false), 'the harness runs as root, where Chromium cannot sandbox the pages it runs');
  try {
    return await launch(true);
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split('\n').find((line) => /sandbox|namespace/i.test(line))?.trim() ?? 'its launch with the sandbox failed';
    return unsandboxed(await launch(false), `Chromium could not make its sandbox here (${why.slice(0, 200)})`);
  }
}

/**
 * The most one renderer (a page with its workers and what it draws, or a shared worker) may hold in
 * memory: a page's script memory is capped below it, but typed arrays, workers and drawing are not.
 */
export const RENDERER_LIMIT_MB = 1024;
/** How often the guard reads the renderers' memory, and how often it looks for new renderers (reading every process of the machine costs more). */
const GUARD_MS = { read: 100, find: 1000 };

/** Why the memory guard could not watch this browser's renderers, when it could not (guardMemory). */
const UNGUARDED = new WeakMap<Browser, string>();

/** Why the memory guard does not watch this browser; undefined when it does. */
export function memoryUnwatched(browser: Browser): string | undefined {
  return UNGUARDED.get(browser);
}

/**
 * Ends every renderer of the browser that holds more than RENDERER_LIMIT_MB (Linux, from /proc;
 * elsewhere only the script memory cap holds, and memoryUnwatched says so for the run's notes): its
 * pages crash, and the run's notes say which (BrowserSession). Stops when the browser closes.
 */
export function guardMemory(browser: Browser, limitMb: number, platform: NodeJS.Platform = process.platform): Browser {
  if (platform !== 'linux') {
    UNGUARDED.set(browser, `the memory guard could not watch the browser's renderers on ${platform} (it reads Linux's /proc): a page was held only by its 512 MB script memory cap, not to ${limitMb} MB in all with its workers and drawing`);
    return browser;
  }
  let renderers: number[] = [];
  let found = 0;
  const timer = setInterval(() => {
    if (Date.now() - found >= GUARD_MS.find) {
      renderers = [...chromiumProcesses()].filter(([, proc]) => proc.type === 'renderer').map(([pid]) => pid);
      found = Date.now();
    }
    for (const pid of renderers) {
      if ((residentBytes(pid) ?? 0) <= limitMb * 1024 * 1024) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // It ended meanwhile.
      }
    }
  }, GUARD_MS.read);
  timer.unref();
  browser.on('disconnected', () => clearInterval(timer));
  return browser;
}

function unsandboxed(browser: Browser, why: string): Browser {
  UNSANDBOXED.set(browser, `the agency's pages ran without Chromium's sandbox: ${why}`);
  return browser;
}

/** playwright-core takes about a second to load: only what finds or launches a browser waits for it, not `harness checks` or a refused command. */
function playwright(): Promise<typeof import('playwright-core')> {
  return import('playwright-core');
}

async function playwrightPath(): Promise<string> {
  try {
    return (await playwright()).chromium.executablePath();
  } catch {
    return '';
  }
}

function playwrightCli(): string {
  return join(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'cli.js');
}

function isDebian(): boolean {
  try {
    return existsSync('/etc/debian_version') || /debian/i.test(readFileSync('/etc/os-release', 'utf8'));
  } catch {
    return false;
  }
}

function tryRun(command: string, args: string[], env: Record<string, string> = {}): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: 300_000, env: { ...process.env, ...env } });
    return true;
  } catch {
    return false;
  }
}
