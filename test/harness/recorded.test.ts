/**
 * The defect matrices' recordings (test/harness/recorded.ts): every defect of both reference
 * agencies has one, so a test run judges them all in seconds; and the live turn takes two defects
 * a day, a different two the next day, so every defect is run live again in turn.
 */
import { expect, test } from 'vitest';
import { SPA_DEFECTS } from '../../fixtures/agency-spa/defects.js';
import { REFERENCE_CASES } from './defect-cases.js';
import { LIVE_ROTATION, hasRecording, liveTurn } from './recorded.js';

test('every defect of both reference agencies has a recording of its live run', () => {
  expect(REFERENCE_CASES.filter(({ name }) => !hasRecording('reference', name)).map(({ name }) => name)).toEqual([]);
  expect(SPA_DEFECTS.filter(({ name }) => !hasRecording('spa', name)).map(({ name }) => name)).toEqual([]);
});

test('the live turn: two defects a day, every defect (and every defect on a site shape) within a cycle of days', () => {
  const names = REFERENCE_CASES.map(({ name }) => name);
  const days = Math.ceil(names.length / LIVE_ROTATION);
  const turns = Array.from({ length: days }, (_, day) => liveTurn(names, LIVE_ROTATION, day));
  expect(turns.every((turn) => turn.size === LIVE_ROTATION)).toBe(true);
  expect(new Set(turns.flatMap((turn) => [...turn])).size).toBe(names.length);
});
