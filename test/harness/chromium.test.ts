/** One Chromium finder for the project, in the one search order the README gives. */
import { existsSync, readFileSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { expect, test, vi } from 'vitest';
import { HOW_TO_GET_CHROMIUM, PLAYWRIGHT_DISABLED_FEATURES, chromiumCandidates, chromiumPath, findChromium, guardMemory, launchChromium, memoryUnwatched } from '../../harness/browser/chromium.js';
import { machineOf } from '../../harness/browser/tells.js';
import * as support from '../support/chromium.js';

/** When set, the only paths that exist as far as the finder can tell: a machine's browsers, made up. */
const installed = vi.hoisted(() => ({ only: undefined as Set<string> | undefined }));
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  return { ...fs, existsSync: (path: string) => (installed.only ? installed.only.has(String(path)) : fs.existsSync(path)) };
});

test('HARNESS_CHROMIUM comes first, then Playwright\'s own browser, then the system\'s', async () => {
  const sources = (await chromiumCandidates({ HARNESS_CHROMIUM: '/opt/chrome' })).map((candidate) => candidate.source);
  expect(sources[0]).toBe('HARNESS_CHROMIUM');
  expect(sources.indexOf('playwright')).toBeLessThan(sources.indexOf('system'));
  expect(await chromiumPath({ HARNESS_CHROMIUM: process.execPath })).toBe(process.execPath);
});

test("the harness's own headless runs look for the system's headless shell before its full Chromium; other runs never get the shell", async () => {
  const paths = async (use?: 'headless') => (await chromiumCandidates({}, use)).filter((candidate) => candidate.source === 'system').map((candidate) => candidate.path);
  const headless = await paths('headless');
  expect(headless.indexOf('/usr/bin/chromium-headless-shell')).toBeLessThan(headless.indexOf('/usr/bin/chromium'));
  expect((await paths()).some((path) => /headless-shell/.test(path))).toBe(false);
  expect((await chromiumCandidates({ HARNESS_CHROMIUM: '/opt/chrome' }, 'headless'))[0]).toEqual({ source: 'HARNESS_CHROMIUM', path: '/opt/chrome' });
});

test("on a machine with the system's Chromium and its headless shell and no Playwright browser, the harness finds the shell", async () => {
  const saved = process.env.HARNESS_CHROMIUM;
  delete process.env.HARNESS_CHROMIUM;
  installed.only = new Set(['/usr/bin/chromium', '/usr/bin/chromium-headless-shell']);
  try {
    expect(await findChromium({ install: 'never' })).toBe('/usr/bin/chromium-headless-shell');
  } finally {
    installed.only = undefined;
    if (saved !== undefined) process.env.HARNESS_CHROMIUM = saved;
  }
});

test('a HARNESS_CHROMIUM that does not exist is one clear line, not a silent fallback', async () => {
  await expect(chromiumPath({ HARNESS_CHROMIUM: '/nonexistent/chrome' })).rejects.toThrow(/^HARNESS_CHROMIUM is \/nonexistent\/chrome, which does not exist/);
});

test('without a browser and without leave to install, it says in one line how to get one', async () => {
  const saved = process.env.HARNESS_CHROMIUM;
  process.env.HARNESS_CHROMIUM = '/nonexistent/chrome';
  try {
    await expect(findChromium({ install: 'never' })).rejects.toThrow(/does not exist/);
  } finally {
    if (saved === undefined) delete process.env.HARNESS_CHROMIUM;
    else process.env.HARNESS_CHROMIUM = saved;
  }
  expect(HOW_TO_GET_CHROMIUM).not.toContain('\n');
  expect(HOW_TO_GET_CHROMIUM).toMatch(/HARNESS_CHROMIUM.*playwright install chromium.*apt-get install -y chromium/);
});

test('the tests use the same finder', () => {
  expect(support.chromiumPath).toBe(chromiumPath);
});

test.runIf(existsSync('/proc/self/cmdline'))("the harness's --disable-features still carries every feature Playwright disables by itself", async () => {
  const server = await chromium.launchServer({ executablePath: await chromiumPath(), headless: true });
  try {
    const args = readFileSync(`/proc/${server.process().pid}/cmdline`, 'utf8').split('\0');
    const own = args.filter((arg) => arg.startsWith('--disable-features=')).map((arg) => arg.slice('--disable-features='.length).split(','));
    expect(own).toHaveLength(1);
    expect([...own[0]!].sort()).toEqual([...PLAYWRIGHT_DISABLED_FEATURES].sort());
  } finally {
    await server.close();
  }
}, 60_000);

test('a browser context of the harness opens its page and nothing else: no browser UI loaded as web pages; the browser names the graphics it draws with (the report\'s tells)', async () => {
  const browser = await launchChromium({ install: 'never' });
  try {
    const context = await browser.newContext();
    await context.newPage();
    const { targetInfos } = await (await browser.newBrowserCDPSession()).send('Target.getTargets');
    expect(targetInfos.map((target) => `${target.type} ${target.url}`)).toEqual(['page about:blank']);
    expect((await machineOf(browser)).renderer).toMatch(/\w/);
  } finally {
    await browser.close();
  }
}, 60_000);

test('where the memory guard cannot read the renderers (no /proc), it says so for the run\'s notes, never silently (issue 48 item 5)', () => {
  const closed: Array<() => void> = [];
  const browserOn = () => ({ on: (event: string, handler: () => void) => event === 'disconnected' && closed.push(handler) }) as unknown as Browser;
  const [elsewhere, linux] = [browserOn(), browserOn()];
  guardMemory(elsewhere, 1024, 'darwin');
  guardMemory(linux, 1024, 'linux');
  for (const close of closed) close();
  expect(memoryUnwatched(elsewhere)).toBe("the memory guard could not watch the browser's renderers on darwin (it reads Linux's /proc): a page was held only by its 512 MB script memory cap, not to 1024 MB in all with its workers and drawing");
  expect(memoryUnwatched(linux)).toBeUndefined();
});
