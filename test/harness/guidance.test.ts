/**
 * What report.html tells an agency about a failed check: every check of the registry has a one-line
 * fix and the reference agency's file that does it right (its guidance), and that file exists.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { CHECKS } from '../../harness/checks/registry.js';
import { packageRoot } from '../../harness/paths.js';

test("every fix is one line, and every reference is a file of the reference agency's that exists", () => {
  for (const { id, guidance } of CHECKS) {
    expect(guidance.fix, id).toMatch(/^[^\n]{10,160}$/);
    expect(guidance.reference, id).toMatch(/^fixtures\/agency-reference\/.+\.ts$/);
    expect(existsSync(join(packageRoot(), guidance.reference)), `${id}: ${guidance.reference}`).toBe(true);
    expect(guidance.rules.length, id).toBeGreaterThan(0);
  }
});
