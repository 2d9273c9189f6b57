/**
 * Proof that the checks can fail: for every defect of the reference agency, the harness run with
 * `--only` the check tied to it reports that check failed: one run each, one browser and an emulator
 * per core shared (useDefectMatrix).
 */
import { describe, expect, test } from 'vitest';
import { DEFECTS } from '../../fixtures/agency-reference/defects.js';
import { useChromium } from '../support/chromium.js';
import { useDefectMatrix } from './world.js';

const verdictOf = useDefectMatrix(useChromium(), DEFECTS.map(({ name, check }) => ({ name, check, options: { defects: [name] } })));

describe('with one defect switched on, its check fails', () => {
  test.for(DEFECTS.map((defect) => [defect.name, defect.check] as const))('--defect %s fails %s', ([name, check]) => {
    const verdict = verdictOf(name);
    expect(verdict?.status, `${check}: ${verdict?.reason}`).toBe('fail');
    expect(verdict?.evidence.length).toBeGreaterThan(0);
  });
});
