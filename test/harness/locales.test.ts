/**
 * Any agency, any language (issue 28, build item 7): both reference agencies in each locale of
 * `--locale`, every word of their pages swapped, pass every check with only `callback`, `preview`
 * and `agency_log` configured: no markers, no vocabulary. One verify per agency and locale, each on
 * an emulator of its own (in memory, started in milliseconds), one Chromium for the file.
 */
import { writeFileSync } from 'node:fs';
import { describe, test } from 'vitest';
import { LOCALES } from '../../fixtures/locales.js';
import { useChromium } from '../support/chromium.js';
import { expectEveryCheckPassed } from './runs.js';
import { harnessWorld } from './world.js';

const browser = useChromium();

describe.for(['reference', 'spa'] as const)('the %s agency', (kind) => {
  test.for(LOCALES)('--locale %s: exit 0, every check passed, with no marker configured', { timeout: 300_000 }, async (locale, { onTestFinished }) => {
    const world = await harnessWorld({ kind, locale });
    onTestFinished(() => world.close());
    // Only what any agency must say: its log (callback and preview are the flags). Trace off: the suite's time.
    writeFileSync(world.config, JSON.stringify({ agency_log: world.agencyLog, trace: 'off' }));
    expectEveryCheckPassed([await world.verify({ browser: browser() })]);
  });
});
