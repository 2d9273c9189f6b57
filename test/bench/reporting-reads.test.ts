/**
 * The bench's reporting reads, run alone as bench/reporting-reads.ts says (built), run to their end:
 * the seed spreads its scans over every brand's packs, so the brand read holds about half of those
 * seeded, and the deep page it reads must be one the brand has (at 1,000,000 scans the brand held
 * fewer than 500,000, that offset was past its end and the bench died; at 10,000 it holds more than
 * half, so this runs the path, it does not reproduce that seed).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import type { ReportingReadFigures } from '../../bench/reporting-reads.js';

const BUILT = fileURLToPath(new URL('../../dist/bench/reporting-reads.js', import.meta.url));

test('every read is measured, the deep scan page and one scan of it among them', { timeout: 120_000 }, async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [BUILT, '--scans', '10000', '--samples', '5', '--load-seconds', '0.5']);
  const figures = JSON.parse(stdout) as ReportingReadFigures;
  expect(figures.reads.map(({ read }) => read)).toContain('one scan');
  const deep = figures.reads.find(({ read }) => read.startsWith('scan list, 100 rows at offset '))!;
  expect(Number(/offset=(\d+)/.exec(deep.path)![1])).toBeGreaterThan(0);
  expect(figures.reads.every(({ p99Ms }) => p99Ms > 0)).toBe(true);
});
