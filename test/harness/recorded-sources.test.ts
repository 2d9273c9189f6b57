/**
 * The recordings were gathered by the sources as they stand (recorded-sources.ts). Under
 * `npm run record:facts` (after every recorded run was made live and kept) this test writes their
 * digests instead; a record of some runs only (HARNESS_LIVE_DEFECTS) leaves the others as they were,
 * so it writes nothing.
 */
import { expect, test } from 'vitest';
import { FACTS_MODE } from './recorded.js';
import { SOURCE_FOLDERS, changedSince, recordedDigests, sourceDigests, writeDigests } from './recorded-sources.js';

const RECORDING = FACTS_MODE === 'record' && !process.env.HARNESS_LIVE_DEFECTS;

test.runIf(RECORDING)('record:facts keeps the digests of the sources the recordings came from', () => {
  writeDigests(sourceDigests());
  expect(changedSince(recordedDigests(), sourceDigests())).toEqual([]);
});

test.skipIf(RECORDING)('the recorded facts were gathered by the run, browser and page code and the agencies as they stand', () => {
  const changed = changedSince(recordedDigests(), sourceDigests());
  expect(changed, `${SOURCE_FOLDERS.join(', ')} changed since the facts were recorded; re-record with npm run record:facts`).toEqual([]);
});

test('a change to one line of a source, a new file or a removed one is a change', () => {
  const recorded = { 'harness/run/a.ts': '1', 'harness/run/b.ts': '2' };
  expect(changedSince(recorded, { 'harness/run/a.ts': '1', 'harness/run/b.ts': '3', 'fixtures/c.ts': '4' })).toEqual(['fixtures/c.ts', 'harness/run/b.ts']);
  expect(changedSince(recorded, { 'harness/run/a.ts': '1' })).toEqual(['harness/run/b.ts']);
});
