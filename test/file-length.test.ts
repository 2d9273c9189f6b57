/**
 * No source file of the repository (programs and tests alike) is longer than 300 lines: a longer one
 * holds more than one thing, and is split by what it holds.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT, sourceFiles } from './support/source-files.js';

const MAX_LINES = 300;

/** The number of lines of a text, a last line without its newline included. */
const linesOf = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** The source files under `root` longer than MAX_LINES, each with its length. */
function longFiles(root: string): string[] {
  return sourceFiles(root).flatMap((file) => {
    const lines = linesOf(readFileSync(join(root, file), 'utf8'));
    return lines > MAX_LINES ? [`${file}: ${lines} lines`] : [];
  });
}

describe('file length', () => {
  const long = longFiles(ROOT);

  test(`no source file is longer than ${MAX_LINES} lines`, () => {
    expect(sourceFiles(ROOT).length).toBeGreaterThan(400);
    expect(long).toEqual([]);
  });

  test(`the lint counts lines: ${MAX_LINES} pass, ${MAX_LINES + 1} are named, the last without its newline too`, () => {
    const root = mkdtempSync(join(tmpdir(), 'file-length-'));
    try {
      writeFileSync(join(root, 'fits.ts'), 'x;\n'.repeat(MAX_LINES));
      writeFileSync(join(root, 'long.ts'), `${'x;\n'.repeat(MAX_LINES)}x;`);
      expect(longFiles(root)).toEqual([`long.ts: ${MAX_LINES + 1} lines`]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
