/** The browser tests use the harness's Chromium finder: one search order for the whole project (DESIGN.md). */
export { CHROMIUM_ARGS, chromiumPath, findChromium, launchChromium } from '../../harness/browser/chromium.js';
