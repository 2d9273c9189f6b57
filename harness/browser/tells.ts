/**
 * What the agency's pages can still tell of an automated browser on a run, after all the harness
 * presents (device.ts): read from the browser and the machine the run used, so each report says
 * what held on that run, not in general.
 */
import { cpus } from 'node:os';
import type { Browser } from 'playwright-core';
import { within } from './within.js';

/** What the run's browser and machine showed. */
export interface Machine {
  /** The graphics the browser drew with, as it names them; undefined when it would not say. */
  renderer: string | undefined;
  cores: number;
  platform: NodeJS.Platform;
}

/** How long the browser may take to name its graphics. */
const ASK_MS = 5000;
const SOFTWARE = /swiftshader|llvmpipe|softpipe|software/i;
const SYSTEMS: Partial<Record<NodeJS.Platform, string>> = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' };

export async function machineOf(browser: Browser): Promise<Machine> {
  const ask = async () => {
    const cdp = await browser.newBrowserCDPSession();
    try {
      const info = (await cdp.send('SystemInfo.getInfo')) as { gpu?: { devices?: Array<{ deviceString?: string }> } };
      return info.gpu?.devices?.[0]?.deviceString || undefined;
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  };
  return { renderer: await within(ask(), ASK_MS, undefined), cores: cpus().length, platform: process.platform };
}

/**
 * The tells that remain on a run on `machine`, each one line for the report. `scanned`: axe-core
 * analysed a page on this run, which it does in the page's own world (its frames answer the top one
 * through messages the page hears), so a page could see it while it ran.
 */
export function tellsOf(machine: Machine, { scanned }: { scanned: boolean }): string[] {
  const drawing = machine.renderer === undefined
    ? 'canvas and WebGL pictures drawn by this machine\'s graphics (the browser did not name them), and its WebGL limits'
    : `canvas and WebGL pictures drawn by ${SOFTWARE.test(machine.renderer) ? 'a software renderer' : 'this machine\'s graphics'} (${machine.renderer.slice(0, 160)}), unlike a phone's, and its WebGL limits`;
  return [
    `the fonts installed on this ${SYSTEMS[machine.platform] ?? machine.platform} machine, which a page can measure`,
    drawing,
    `a worker's navigator: this machine's ${machine.cores} cores, and English first`,
    'the source text of the few functions the harness sets in a page (Function.prototype.toString)',
    'no motion sensors, cameras or microphones, which a phone has',
    ...(scanned ? ['the accessibility scan: axe-core runs in the page itself while it analyses a state, where the page\'s own scripts can see it'] : []),
  ];
}
