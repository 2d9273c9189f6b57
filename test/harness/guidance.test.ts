/**
 * What report.html tells an agency about a failed check: every check of the registry has a one-line
 * fix and the reference agency's file that does it right, and that file exists.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { GUIDANCE } from '../../harness/checks/guidance.js';
import { CHECKS } from '../../harness/checks/registry.js';
import { packageRoot } from '../../harness/paths.js';

test('every check has guidance, and guidance names no check the registry lacks', () => {
  expect(Object.keys(GUIDANCE).sort()).toEqual(CHECKS.map((check) => check.id).sort());
});

test("every fix is one line, and every reference is a file of the reference agency's that exists", () => {
  for (const [id, guidance] of Object.entries(GUIDANCE)) {
    expect(guidance.fix, id).toMatch(/^[^\n]{10,160}$/);
    expect(guidance.reference, id).toMatch(/^fixtures\/agency-reference\/.+\.ts$/);
    expect(existsSync(join(packageRoot(), guidance.reference)), `${id}: ${guidance.reference}`).toBe(true);
    expect(guidance.rules.length, id).toBeGreaterThan(0);
  }
});
