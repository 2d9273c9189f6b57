/**
 * One writer per table (eslint/table-writers.js): the rule names each table's one writing module,
 * finds no second writer in the tree, and reports one where a module writes a table it does not own.
 */
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { MIGRATION_FILES, WRITERS, tableWritersRule } from '../eslint/table-writers.js';
import { openDb } from '../emulator/store/db.js';

const eslint = new ESLint({
  overrideConfigFile: true,
  overrideConfig: [{
    files: ['**/*.ts'],
    ignores: ['**/*.test.ts', ...MIGRATION_FILES],
    languageOptions: { parser: tseslint.parser },
    plugins: { local: { rules: { 'one-writer': tableWritersRule } } },
    rules: { 'local/one-writer': 'error' },
  }],
});

async function problems(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((message) => message.message);
}

describe('one writer per table', () => {
  it('names a writer for every table the migrations create, and no other', () => {
    const db = openDb(':memory:');
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all();
    db.close();
    expect(Object.keys(WRITERS).sort()).toEqual(tables);
  });

  it('finds no table written by a module other than its writer', async () => {
    const results = await eslint.lintFiles(['emulator/**/*.ts']);
    const found = results.flatMap((result) => result.messages.map((message) => `${result.filePath}: ${message.message}`));
    expect(results.length).toBeGreaterThan(100);
    expect(found).toEqual([]);
  }, 120_000);

  it.each([
    ['the seed updating the SKUs', 'emulator/store/world.ts', "db.prepare('UPDATE skus SET promotion_id = NULL').run();", 'skus'],
    ['the seed inserting scans in a template', 'emulator/store/history.ts', 'db.prepare(`INSERT INTO scans (unit_id)\n  VALUES (${1})`);', 'scans'],
    ['a use case voiding codes', 'emulator/use-cases/session-open.ts', "db.exec('update auth_codes set voided_at = 1');", 'auth_codes'],
    ['a route deleting rows', 'emulator/control/world-rows.ts', 'db.exec(`DELETE FROM "sessions"`);', 'sessions'],
    ['an upsert', 'emulator/store/form-secret.ts', "db.exec('INSERT OR IGNORE INTO meta (key, value) VALUES (1, 2)');", 'meta'],
  ])('refuses %s', async (_name, filePath, code, table) => {
    expect(await problems(code, filePath)).toEqual([expect.stringContaining(`${table} is written by ${WRITERS[table]} only`)]);
  });

  it('lets the writer write its tables, and reads and unnamed tables pass', async () => {
    expect(await problems("db.prepare('UPDATE skus SET promotion_id = NULL').run();", 'emulator/store/skus.ts')).toEqual([]);
    expect(await problems("db.prepare('SELECT * FROM skus'); db.prepare('INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET value = value + 1');", 'emulator/store/db.ts')).toEqual([]);
    expect(await problems('db.exec(`DELETE FROM "${name}"`);', 'emulator/store/reset.ts')).toEqual([]);
  });
});
