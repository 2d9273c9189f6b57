/** A screenshot that could not be taken is not listed with a path to no file (issue 48 item 4). */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { BrowserSession } from '../../../harness/run/browser-session.js';
import { ADVISORY_CHECKS } from '../../../harness/checks/advisory.js';
import { ConfigSchema } from '../../../harness/config.js';
import { Capturer } from '../../../harness/run/capture.js';
import { RunFacts } from '../../../harness/run/facts.js';

const folder = mkdtempSync(join(tmpdir(), 'capture-shots-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A page whose screenshots succeed (the file written) until the `fails`th, which throws as a page that navigated away does. */
function pageFailingAt(fails: number): Page {
  let shots = 0;
  return {
    screenshot: async ({ path }: { path: string }) => {
      shots += 1;
      if (shots >= fails) throw new Error('Target page, context or browser has been closed');
      writeFileSync(path, 'png');
    },
    setViewportSize: async () => undefined,
    viewportSize: () => ({ width: 390, height: 844 }),
    context: () => ({ newCDPSession: async () => Promise.reject(new Error('closed')) }),
  } as unknown as Page;
}

test.for([
  [1, []],
  [2, ['mobile']],
] as const)('screenshot %i failing: review.screenshots lists only the files written (%j)', async ([fails, listed]) => {
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:1', emulator: 'http://127.0.0.1:2', callback: 'http://127.0.0.1:1/callback' }, join(folder, String(fails)));
  const session = { page: pageFailingAt(fails), scenario: 'production-won' } as unknown as BrowserSession;
  await new Capturer(facts, { axe: false, screenshots: true }).capture(session, { scenario: 'production-won', journey: 'main', environment: 'production', at: 0, url: 'http://127.0.0.1:1/won', status: 200, shows: ['state:won'], links: [], title: 'won', text: '' });
  const evidence = ADVISORY_CHECKS.find((check) => check.id === 'review.screenshots')!.evaluate(facts)?.evidence ?? [];
  expect(evidence.map((item) => (item.data as { size: string }).size)).toEqual(listed);
  for (const item of evidence) expect(existsSync(item.path!)).toBe(true);
});
