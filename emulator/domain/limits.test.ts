import { expect, it } from 'vitest';
import { BROWSER_SESSION_LIFETIME_MS, CODE_LIFETIME_MS, KEY_LIFETIME_MS, SESSION_LIFETIME_MS, inWords } from './limits.js';

it('words a lifetime in its largest whole unit, as messages and documents say it', () => {
  expect([CODE_LIFETIME_MS, SESSION_LIFETIME_MS, KEY_LIFETIME_MS, BROWSER_SESSION_LIFETIME_MS].map(inWords)).toEqual(['5 minutes', '30 minutes', '90 days', '1 day']);
  expect(inWords(90_000)).toBe('90 seconds');
  expect(inWords(3000 * 86_400_000)).toBe('3,000 days');
});
