import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { DURATION_UNITS, formatOffset, parseDuration } from '../../emulator/clock.js';
import { sourceFiles } from '../support/source-files.js';
import { BROWSER_SESSION_LIFETIME_MS, CODE_LIFETIME_MS, KEY_LIFETIME_MS, SESSION_LIFETIME_MS, inWords } from '../../emulator/domain/limits.js';

it('words a lifetime in its largest whole unit, as messages and documents say it', () => {
  expect([CODE_LIFETIME_MS, SESSION_LIFETIME_MS, KEY_LIFETIME_MS, BROWSER_SESSION_LIFETIME_MS].map(inWords)).toEqual(['5 minutes', '30 minutes', '90 days', '1 day']);
  expect(inWords(90_000)).toBe('90 seconds');
  expect(inWords(3000 * 86_400_000)).toBe('3,000 days');
});

it('lifetimes are worded, and durations written and read, in one table of units', () => {
  for (const { short, word, ms } of DURATION_UNITS) {
    expect([inWords(ms), inWords(2 * ms), parseDuration(`2${short}`)]).toEqual([`1 ${word}`, `2 ${word}s`, 2 * ms]);
    if (ms >= 1000) expect(formatOffset(-3 * ms)).toBe(`-3${short}`);
  }
});

it('every expiry check asks expired(): no query of the emulator compares expires_at itself', () => {
  const root = fileURLToPath(new URL('../../emulator/', import.meta.url));
  const sources = sourceFiles(root).filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts'));
  const compared = sources.filter((path) => /expires_at\s*[<>]/.test(readFileSync(join(root, path), 'utf8')));
  expect(compared).toEqual([]);
});
