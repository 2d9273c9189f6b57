/**
 * After a 429, the harness judges what was sent, not the page's shape: an agency that shows the
 * consent form with the wait (the reference agency's default, run by demo.test.ts), one that
 * shows a wait page with a link back, and one whose wait page sends the entry again by itself
 * (counting down or not) all pass, as long as nothing reaches the service before Retry-After. One
 * that sends at once fails.
 * Two of them run as an agency that names no state on its pages, in Italian and Polish (issue 42, item 1).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import type { AfterRateLimit } from '../../fixtures/agency-reference/pages/layout.js';
import type { Locale } from '../../fixtures/locales.js';
import { exitCodeOf } from '../../harness/report/legend.js';
import { useChromium } from '../support/chromium.js';
import { type HarnessWorldOptions, harnessWorld } from './world.js';

const CHECKS = ['journey.state.rate_limited', 'behaviour.retry_after_honoured'];

const browser = useChromium();

/** The agency's request log: how often the page sent the entry to each of its endpoints. */
function posts(log: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of log.split('\n').filter(Boolean)) {
    const { method, url } = JSON.parse(line) as { method?: string; url?: string };
    if (method === 'POST' && url?.startsWith('/entry')) counts[url] = (counts[url] ?? 0) + 1;
  }
  return counts;
}

/**
 * An agency whose pages name no state (`unmarkedStates`), in another language, told only its log: the
 * harness learns the states from the preview, and the 429 page shares with the preview's pending page
 * the one feature no other state's page has (a `role="status"` paragraph). It is rate_limited, not pending.
 */
const UNMARKED = (locale: Locale): Pick<HarnessWorldOptions, 'locale' | 'agency'> => ({ locale, agency: { unmarkedStates: true } });

test.concurrent.for([
  ['link', { '/entry': 2 }, UNMARKED('it')],
  ['retry', { '/entry': 1, '/entry/retry': 1 }, {}],
  // Its seconds tick down every second until the page sends the entry again: a page that only ticks digits has settled.
  ['countdown', { '/entry': 1, '/entry/retry': 1 }, UNMARKED('pl')],
] as Array<[AfterRateLimit, Record<string, number>, Pick<HarnessWorldOptions, 'locale' | 'agency'>]>)('a wait page (%s) after the 429 passes: nothing reached the service before Retry-After', { timeout: 180_000 }, async ([style, sent, options], { onTestFinished }) => {
  const unmarked = Boolean(options.agency?.unmarkedStates);
  const world = await harnessWorld({ approved: true, ...options, agency: { ...options.agency, afterRateLimit: style }, config: { trace: 'off' } });
  onTestFinished(() => world.close());
  // Without state markers the preview must run, to teach the states the 429 page is told apart from.
  const only = unmarked ? [...CHECKS, 'coverage.sandbox_calls'] : CHECKS;
  const report = await world.verify({ only, browser: browser() });
  expect(report.checks.map((check) => `${check.id}: ${check.status}`).sort(), JSON.stringify(report.checks.map((check) => check.reason))).toEqual(only.map((id) => `${id}: pass`).sort());
  expect(exitCodeOf(report.summary)).toBe(0);
  // The page, not the harness, decided how the entry went again: by the link and its form, or by itself.
  expect(posts(readFileSync(world.agencyLog, 'utf8'))).toEqual(sent);
  if (!unmarked) return;
  // What the 429 page shares with pending, and that it lacks pending's words, is in the evidence.
  const limited = report.checks.find((check) => check.id === 'journey.state.rate_limited')!;
  expect(limited.evidence.map((item) => item.label).join('\n')).toMatch(/inferred: the service answered 429 rate_limited .*; it shares pending's markup [^;]*p\[role="status"\][^;]*; text [^;]*\(\d+ of \d+ words only its page shows\), not that page as a whole/);
});

test.concurrent('a wait page that sends the entry again at once fails behaviour.retry_after_honoured', { timeout: 180_000 }, async ({ onTestFinished }) => {
  const world = await harnessWorld({ approved: true, defects: ['ignores-retry-after'], agency: { afterRateLimit: 'retry' }, config: { trace: 'off' } });
  onTestFinished(() => world.close());
  const report = await world.verify({ only: ['behaviour.retry_after_honoured'], browser: browser() });
  expect(report.checks[0]).toMatchObject({ status: 'fail', reason: expect.stringMatching(/call\(s\) within 8 s of a 429 with Retry-After 8/) });
});
