/**
 * Where tests live (README, "Where tests live"): every test file under test/, in the folder named
 * after what it tests. vitest.config.ts runs test/ only, so a file placed anywhere else would
 * never run; this fails on it instead.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Folders of no code of ours: installed, built or written by a run. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.emulator', 'coverage', 'bench-results', 'harness-report', 'test-results']);
/** Folders of test/ named after what spans areas, or after a code folder by another name. */
const ACROSS = new Set(['agency', 'hardening', 'packaging', 'promotions']);
/** Where a folder of test/ finds the code folder it is named after. */
const CODE_HOMES = ['emulator', '.', 'fixtures'];

function testFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = folder === '.' ? entry.name : posix.join(folder, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const isFolder = (path: string) => existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isDirectory();

/** Why a test file's path breaks the rule, or undefined when it keeps it. */
function misplaced(path: string, folderExists: (path: string) => boolean): string | undefined {
  const [top, ...rest] = path.split('/');
  if (top !== 'test') return 'not under test/';
  const folders = rest.slice(0, -1);
  if (folders.length === 0) return undefined;
  const [area, ...below] = folders;
  if (ACROSS.has(area!) && below.length === 0) return undefined;
  const named = CODE_HOMES.some((home) => folderExists(posix.join(home, ...folders)));
  return named ? undefined : `test/${folders.join('/')}/ names no folder of the code (emulator/, the top level, fixtures/) nor an area across them (${[...ACROSS].join(', ')})`;
}

it('every test file of the repository is under test/, in a folder named after what it tests', () => {
  const files = testFiles('.');
  expect(files.length).toBeGreaterThan(150);
  expect(files.flatMap((path) => {
    const why = misplaced(path, isFolder);
    return why === undefined ? [] : [`${path}: ${why}`];
  })).toEqual([]);
});

it('names a test beside its code, and a folder of test/ that names nothing', () => {
  const folders = new Set(['emulator/domain', 'emulator/store', 'harness', 'harness/checks', 'fixtures/agency-spa']);
  const has = (path: string) => folders.has(path);
  expect(misplaced('emulator/domain/pkce.test.ts', has)).toBe('not under test/');
  expect(misplaced('harness/checks/consent.test.ts', has)).toBe('not under test/');
  expect(misplaced('test/unit/pkce.test.ts', has)).toMatch(/^test\/unit\/ names no folder/);
  expect(misplaced('test/harness/nowhere/x.test.ts', has)).toMatch(/^test\/harness\/nowhere\/ names no folder/);
  expect(misplaced('test/hardening/support/x.test.ts', has)).toMatch(/^test\/hardening\/support\/ names no folder/);
  for (const kept of ['test/cli.test.ts', 'test/domain/pkce.test.ts', 'test/store/db.test.ts', 'test/harness/checks/consent.test.ts', 'test/harness/bounds.test.ts', 'test/agency-spa/entry.test.ts', 'test/hardening/csrf.test.ts']) {
    expect(misplaced(kept, has), kept).toBeUndefined();
  }
});

it('every file that mocks a module runs alone in a fresh worker (vitest.config.ts ALONE), where its mock applies', () => {
  const config = readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8');
  const alone = /const ALONE = \[([^\]]*)\]/.exec(config)?.[1] ?? '';
  const mocking = testFiles('test').filter((path) => /\bvi\.mock\(/.test(readFileSync(join(ROOT, path), 'utf8')));
  expect(mocking.length).toBeGreaterThan(0);
  expect(mocking.filter((path) => !alone.includes(`'${path}'`))).toEqual([]);
});
