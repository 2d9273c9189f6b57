/**
 * docs/rules.md in step with the harness: every rule a check names is a row there, every check a
 * row names exists and names that rule back, and every test file a row names exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { CHECKS, CHECK_IDS } from '../../harness/checks/registry.js';
import { packageRoot } from '../../harness/paths.js';

interface Row {
  id: string;
  section: string;
  text: string;
  tests: string[];
  checks: string[];
}

/** `| <a id="x"></a>`x` | §… | our words | `test/…`, … | `check.id`, … or — |` */
function rows(): Row[] {
  const markdown = readFileSync(join(packageRoot(), 'docs', 'rules.md'), 'utf8');
  return markdown.split('\n').flatMap((line) => {
    const match = /^\| <a id="([a-z0-9-]+)"><\/a>`([a-z0-9-]+)` \| ([^|]+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$/.exec(line);
    if (!match) return [];
    const [, anchor, id, section, text, tests, checks] = match;
    expect(anchor, line).toBe(id);
    const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((found) => found[1]!);
    return [{ id: id!, section: section!.trim(), text: text!.trim(), tests: ticked(tests!), checks: checks!.trim() === '—' ? [] : ticked(checks!) }];
  });
}

const table = rows();

test('docs/rules.md has one row per rule, each with a spec section, our words and at least one test', () => {
  expect(table.length).toBeGreaterThanOrEqual(60);
  expect(new Set(table.map((row) => row.id)).size).toBe(table.length);
  for (const row of table) {
    expect(row.section, row.id).toMatch(/^§\d/);
    expect(row.text.length, row.id).toBeGreaterThan(20);
    expect(row.tests.length, row.id).toBeGreaterThan(0);
  }
});

test('every test file docs/rules.md names exists', () => {
  const missing = table.flatMap((row) => row.tests.filter((file) => !/^test\/.+\.test\.ts$/.test(file) || !existsSync(join(packageRoot(), file))).map((file) => `${row.id}: ${file}`));
  expect(missing).toEqual([]);
});

test("every check's rule ids are rows of docs/rules.md, and every check a row names exists and names that rule", () => {
  const ids = new Set(table.map((row) => row.id));
  const unknownRules = CHECKS.flatMap(({ id, guidance }) => guidance.rules.filter((rule) => !ids.has(rule)).map((rule) => `${id}: ${rule}`));
  expect(unknownRules).toEqual([]);
  const unknownChecks = table.flatMap((row) => row.checks.filter((check) => !CHECK_IDS.has(check)).map((check) => `${row.id}: ${check}`));
  expect(unknownChecks).toEqual([]);
  const fromTable = table.flatMap((row) => row.checks.map((check) => `${check} ${row.id}`)).sort();
  const fromChecks = CHECKS.flatMap(({ id, guidance }) => guidance.rules.map((rule) => `${id} ${rule}`)).sort();
  expect(fromTable).toEqual(fromChecks);
});
