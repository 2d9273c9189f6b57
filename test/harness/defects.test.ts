/**
 * Proof that the checks can fail: for every defect of the reference agency, the harness run with
 * `--only` the check tied to it reports that check failed: judged on the facts its live run recorded,
 * two defects a day run live (useDefectMatrix, test/harness/recorded.ts).
 */
import { describe, expect, test } from 'vitest';
import { DEFECTS } from '../../fixtures/agency-reference/defects.js';
import { useChromium } from '../support/chromium.js';
import { useDefectMatrix } from './world.js';

const verdictOf = useDefectMatrix(useChromium(), 'reference', DEFECTS.map(({ name, check }) => ({ name, check, options: { defects: [name] } })));

describe('with one defect switched on, its check fails', () => {
  test.for(DEFECTS.map((defect) => [defect.name, defect.check] as const))('--defect %s fails %s', ([name, check]) => {
    const verdict = verdictOf(name);
    expect(verdict?.status, `${check}: ${verdict?.reason}`).toBe('fail');
    expect(verdict?.evidence.length).toBeGreaterThan(0);
  });
});
