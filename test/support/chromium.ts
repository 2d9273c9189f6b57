/** Finds a Chromium for the browser tests and launches it headless on this locked-down machine. */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Without the background-networking flags Chromium keeps calling out to a network this machine does not have. */
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** HARNESS_CHROMIUM, then Playwright's own browser, then the system's; otherwise one line on how to get one. */
export function chromiumPath(): string {
  const candidates = [process.env.HARNESS_CHROMIUM, chromium.executablePath(), '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((candidate) => candidate && existsSync(candidate));
  if (!found) {
    throw new Error('[tests] no Chromium found: set HARNESS_CHROMIUM to one, run `npx playwright install chromium`, or on Debian `apt-get install -y chromium`');
  }
  return found;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: ARGS });
}
