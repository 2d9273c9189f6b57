/** The CSRF probe's forged requests come from a site an agency cannot know in advance (issue 48 item 2). */
import { expect, test } from 'vitest';
import { attackerOrigin } from '../../../harness/run/endpoint-probe.js';

test('the attacker\'s origin is another ordinary https site at each draw, never one fixed origin an agency could refuse alone', () => {
  const drawn = Array.from({ length: 40 }, attackerOrigin);
  expect(new Set(drawn).size).toBeGreaterThanOrEqual(39);
  for (const origin of drawn) {
    expect(origin).toMatch(/^https:\/\/[a-z]{5,11}\.[a-z]{2,4}$/);
    expect(new URL(origin).origin).toBe(origin);
  }
  expect(new Set(drawn.map((origin) => origin.split('.').at(-1))).size).toBeGreaterThan(3);
});
