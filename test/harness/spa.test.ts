/**
 * The single-page agency (fixtures/agency-spa): client-rendered, German, its own page and state
 * names, its entry a `fetch` with a CSRF header, a wait page that retries by itself after a 429.
 * Configured only by its own harness.config.json (its markers; no entry endpoint, no form), drawing
 * each view as slowly as an old phone, it passes every check in a full verify after a short run and
 * an emulator reset (runs.ts, verifyAfterReset: the defect matrices' live turns never run on a reset
 * emulator); each of its defects fails the check tied to it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SPA_DEFECTS } from '../../fixtures/agency-spa/defects.js';
import type { Report } from '../../harness/report/types.js';
import { useChromium } from '../support/chromium.js';
import { BEFORE_RESET, expectEveryCheckPassed, verifyAfterReset } from './runs.js';
import { type HarnessWorld, harnessWorld, useDefectMatrix } from './world.js';

const browser = useChromium();

describe('the single-page agency, drawing each view 600 ms after its data arrived (longer than the quiet the harness waits for after an action)', () => {
  let world: HarnessWorld;
  let runs: { before: Report; after: Report };
  beforeAll(async () => {
    world = await harnessWorld({ kind: 'spa', spa: { renderDelayMs: 600 }, config: { trace: 'off' } });
    runs = await verifyAfterReset(world, { browser: browser() });
  }, 600_000);
  afterAll(async () => {
    await world?.close();
  });

  test('passes every check in a full verify after a short run and an emulator reset, exit 0 each time: the harness waits for what a page draws, it does not read it once', () => {
    expectEveryCheckPassed([runs.before], BEFORE_RESET);
    expectEveryCheckPassed([runs.after]);
  });
});

describe('with one of its defects switched on, its check fails', () => {
  const verdictOf = useDefectMatrix(browser, 'spa', SPA_DEFECTS.map(({ name, check }) => ({ name, check, options: { kind: 'spa', defects: [name] } })));
  test.for(SPA_DEFECTS.map((defect) => [defect.name, defect.check] as const))('--defect %s fails %s', ([name, check]) => {
    const verdict = verdictOf(name);
    expect(verdict?.status, `${check}: ${verdict?.reason}`).toBe('fail');
  });
});
