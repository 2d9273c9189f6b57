/**
 * report.html in a real browser, written by the report writer from a report with one failed, one
 * inconclusive and one passed check and two states' screenshots: the verdict banner comes first,
 * failures before passes, each failure says how to fix it and where it is done right, and the
 * gallery shows labelled mobile and desktop pairs whose thumbnails open full size without script.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CheckReport } from '../../harness/checks/evaluate.js';
import { htmlReporter } from '../../harness/report/html.js';
import type { Report } from '../../harness/report/types.js';
import { useChromium } from '../support/chromium.js';

const browser = useChromium();
let folder: string;
let page: Page;
let source: string;

const SIZES = { mobile: { width: 390, height: 500 }, desktop: { width: 1280, height: 700 } } as const;

async function screenshot(state: string, size: keyof typeof SIZES): Promise<string> {
  const shot = await browser().newPage({ viewport: SIZES[size] });
  await shot.setContent(`<h1 style="font-size:4rem">${state} ${size}</h1>`);
  const path = join(folder, 'screenshots', `${state.replace(':', '-')}.${size}.png`);
  await shot.screenshot({ path });
  await shot.close();
  return path;
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'report-html-'));
  const shots = [];
  for (const state of ['production:result-won', 'sandbox:result-lost']) {
    for (const size of ['mobile', 'desktop'] as const) shots.push({ label: `${state} (${size})`, path: await screenshot(state, size), data: { state, size } });
  }
  const trace = join(folder, 'traces', 'pkce-s256-main.zip');
  const checks: CheckReport[] = [
    { id: 'state.format', title: 'state is 32 to 128 base64url characters', group: 'pkce', spec: '§5 rule 4, §8', status: 'pass', reason: '12 journeys, every state 43 characters', evidence: [] },
    {
      id: 'pkce.s256', title: 'code_challenge is the S256 of the verifier', group: 'pkce', spec: '§4.3 step 4', status: 'fail',
      reason: 'the challenge of journey main is padded with "=" <b>', evidence: [{ label: 'evidence file', path: join(folder, 'evidence', 'pkce.s256.json') }, { label: 'Playwright trace of won', path: trace }],
    },
    { id: 'logs.params_redacted', title: "service_request, service_code and state never appear in the agency's log", group: 'callback', spec: '§4.3 callback page rules', status: 'inconclusive', reason: 'no agency log to search', configure: 'agency_log: your log file', evidence: [] },
    { id: 'review.screenshots', title: 'Mobile and desktop screenshots of every state', group: 'advisory', spec: '§1 lifecycle 5', status: 'manual', reason: '4 screenshots of 2 states to review', evidence: shots },
  ];
  const report: Report = {
    run: {
      harness_version: '0.1.0', started_at: '2026-01-01T00:00:00.000Z', finished_at: '2026-01-01T00:00:30.000Z', duration_ms: 30_000, chromium: 'test', tells: [],
      emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback', preview: null, promotion: { id: 1, slug: 'spring', name: 'Spring', mechanic: 'instant_win' },
      only: null, out_dir: folder, notes: [], allowances: [], max_seconds: 600,
    },
    summary: { pass: 1, fail: 1, warn: 0, manual: 1, inconclusive: 1 },
    checks,
    scenarios: [],
  };
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  await htmlReporter({ outDir: folder, stdout: sink, stderr: sink, color: false }).onEnd!(report);
  source = readFileSync(join(folder, 'report.html'), 'utf8');
  page = await browser().newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(pathToFileURL(join(folder, 'report.html')).href);
});

afterAll(async () => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

test('the verdict banner comes first: do not approve, with the counts', async () => {
  const first = page.locator('body > *').first();
  await expect(first.getAttribute('id')).resolves.toBe('verdict');
  const banner = await first.innerText();
  expect(banner).toMatch(/^Do not approve\n/);
  expect(banner).toContain('1 fail');
  expect(banner).toContain('1 inconclusive');
  expect(banner).toContain('1 manual');
  expect(banner).toContain('1 pass');
  expect(banner).toContain('exit 1: 1 check(s) failed');
});

test('failures first, then inconclusive, then passes', async () => {
  const order = await page.locator('ul.checks > li').evaluateAll((items) => items.map((item) => `${item.className} ${item.querySelector('.id')!.textContent}`));
  expect(order).toEqual(['fail pkce.s256', 'inconclusive logs.params_redacted', 'manual review.screenshots', 'pass state.format']);
});

test('a failure says what was seen, how to fix it, the rule and the file that does it right, with its trace and the command that opens it', async () => {
  const failure = page.locator('li.fail');
  const text = await failure.innerText();
  expect(text).toContain('What was seen: the challenge of journey main is padded with "=" <b>');
  expect(text).toMatch(/How to fix it: .*S256/);
  expect(text).toContain('The rule: code_challenge is the S256 of the verifier (spec §4.3 step 4');
  expect(text).toContain('Done right in: fixtures/agency-reference/journey.ts');
  await expect(failure.locator('.rule a').getAttribute('href')).resolves.toBe('rules.html#challenge-s256');
  await expect(failure.locator('.trace a').getAttribute('href')).resolves.toBe('traces/pkce-s256-main.zip');
  expect(await failure.locator('.trace code').innerText()).toBe('npx playwright-core show-trace traces/pkce-s256-main.zip');
  // A pass is not told how to fix anything.
  expect(await page.locator('li.pass .fix').count()).toBe(0);
});

test('the gallery shows a labelled mobile and desktop pair per state', async () => {
  expect(await page.locator('.pair h3').allInnerTexts()).toEqual(['Won, production', 'Lost, sandbox']);
  expect(await page.locator('.pair figcaption').allInnerTexts()).toEqual(['Won, production, mobile', 'Won, production, desktop', 'Lost, sandbox, mobile', 'Lost, sandbox, desktop']);
  expect(source).not.toContain('result:lost');
});

test('a thumbnail opens the full-size image, and closes again', async () => {
  // The DOM is read with expressions: the test's TypeScript has no DOM types.
  const first = `document.querySelector('.pair figure')`;
  const seen = () => page.evaluate<{ position: string; shown: number; natural: number }>(`({ position: getComputedStyle(${first}).position, shown: ${first}.querySelector('img').clientWidth, natural: ${first}.querySelector('img').naturalWidth })`);
  const thumbnail = await seen();
  expect(thumbnail.natural).toBe(SIZES.mobile.width);
  expect(thumbnail.shown).toBeLessThan(thumbnail.natural);
  expect(thumbnail.position).toBe('static');
  const figure = page.locator('.pair figure').first();
  await figure.locator('a.open').click();
  expect(await seen()).toEqual({ position: 'fixed', shown: SIZES.mobile.width, natural: SIZES.mobile.width });
  await figure.locator('a.close').click();
  expect((await seen()).position).toBe('static');
});

test('one self-contained file: every screenshot inlined once, no script, no external resource', () => {
  expect(source.match(/<img [^>]*src="data:image\/png;base64,/g)).toHaveLength(4);
  expect(source).not.toMatch(/<(script|link)\b|src="http|\burl\(/i);
});
