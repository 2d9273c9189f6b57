import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that drive Chromium, spawn the built CLI against a live agency, or time real seconds: they
 * run after the in-process files, two at a time, so that one file's real seconds (a polling
 * schedule, a stop's grace) leave the other the cores: the group 418 s two at a time, 656 s one at a
 * time before it. Mixed with the in-process files (three workers for both) an emulator start timed
 * out, so those go first, on their own (issue 25).
 */
const LIVE = [
  // The harness's tests that run verifies or open Chromium; its others judge made-up or recorded facts in process.
  ...['agency-shapes', 'chromium', 'cli-could-not-run', 'cli-doctor', 'cli-verify', 'consent-boxes', 'defects', 'defects-locales', 'evidence', 'learned-states', 'locales', 'polling', 'rate-limited', 'recognise', 'site-shapes', 'spa'].map((name) => `test/harness/${name}.test.ts`),
  '**/*.browser.test.ts',
  'test/packaging/**/*.test.ts',
  'test/playwright/**/*.test.ts',
  'test/readme.test.ts',
  'test/demo.test.ts',
  'test/hardening/folder-lock.test.ts',
  // The Python agency (fixtures/agency-python) started as a process and verified by the built harness.
  'test/agency-python/verify.test.ts',
];

/** Every test file lives under test/ (README, "Where tests live"; test/test-locations.test.ts holds it). */
const INCLUDE = ['test/**/*.test.ts'];

/**
 * Files alone in a fresh worker: one that measures what the whole process runs (V8's coverage of
 * one request), where no other file's timers run; and those that mock a module (`vi.mock`), whose
 * mock would not apply where an earlier file of the worker had already imported the real one.
 */
const ALONE = ['test/request-walk.test.ts', 'test/harness/polling-watch-cap.test.ts', 'test/harness/chromium.test.ts'];

/**
 * The files that hold a worker longest (in CI's timeline, their tests and hooks), longest first:
 * each group starts them first, and the short files then fill both workers up to the group's end.
 * Without it a fresh checkout (no results cached) starts the largest files first, and the unit
 * group's longest file (bounds, 54 s) started last: its other worker idled 39 s.
 */
const SLOWEST = [
  'test/harness/bounds.test.ts', 'test/cli/start-stop.test.ts', 'test/cli/usage-errors.test.ts', 'test/cli/start-options.test.ts', 'test/experience/admission.property.test.ts',
  'test/packaging/playwright-project.test.ts', 'test/harness/cli-verify.test.ts', 'test/harness/cli-doctor.test.ts', 'test/harness/spa.test.ts', 'test/harness/locales.test.ts', 'test/harness/agency-shapes.test.ts',
  'test/harness/site-shapes.test.ts', 'test/playwright/examples.test.ts', 'test/demo.test.ts', 'test/agency-python/verify.test.ts', 'test/journey/accessibility.browser.test.ts', 'test/hardening/folder-lock.test.ts', 'test/harness/defects-locales.test.ts', 'test/agency/journey.browser.test.ts',
];

/** Vitest's order (by group, then its cache or the files' sizes), with the slowest files moved to the front of their group. */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = SLOWEST.findIndex((name) => file.moduleId.endsWith(`/${name}`));
      return index === -1 ? SLOWEST.length : index;
    };
    const group = (file: TestSpecification) => file.project.config.sequence.groupOrder;
    return sorted.map((file, order) => ({ file, order })).sort((a, b) => group(a.file) - group(b.file) || rank(a.file) - rank(b.file) || a.order - b.order).map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    sequence: { sequencer: SlowestFirst },
    projects: [
      // In-process tests of the emulator, the agencies and the harness's rules: two files at a time,
      // each worker keeping the modules it imported for its next file (isolate: false): on 2 cores the
      // group took 257 s and 496 CPU-s isolated, 156 s and 298 CPU-s not (issue 25). A file that
      // changes what another imports (vi.mock, a module's state) must undo it in its own hooks.
      { extends: true, test: { name: 'unit', include: INCLUDE, exclude: [...LIVE, ...ALONE], maxWorkers: 2, isolate: false, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'alone', include: ALONE, maxWorkers: 2, isolate: true, sequence: { groupOrder: 0 } } },
      // The live files, two at a time, keep their modules between files too (their import time 51 -> 11 s).
      { extends: true, test: { name: 'live', include: LIVE, maxWorkers: 2, isolate: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
