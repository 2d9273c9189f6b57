/** One Chromium finder for the project, in DESIGN.md's order. */
import { expect, test } from 'vitest';
import { HOW_TO_GET_CHROMIUM, chromiumCandidates, chromiumPath, findChromium } from '../../harness/browser/chromium.js';
import * as support from '../support/chromium.js';

test('HARNESS_CHROMIUM comes first, then Playwright\'s own browser, then the system\'s', () => {
  const sources = chromiumCandidates({ HARNESS_CHROMIUM: '/opt/chrome' }).map((candidate) => candidate.source);
  expect(sources[0]).toBe('HARNESS_CHROMIUM');
  expect(sources.indexOf('playwright')).toBeLessThan(sources.indexOf('system'));
  expect(chromiumPath({ HARNESS_CHROMIUM: process.execPath })).toBe(process.execPath);
});

test('a HARNESS_CHROMIUM that does not exist is one clear line, not a silent fallback', () => {
  expect(() => chromiumPath({ HARNESS_CHROMIUM: '/nonexistent/chrome' })).toThrow(/^HARNESS_CHROMIUM is \/nonexistent\/chrome, which does not exist/);
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
