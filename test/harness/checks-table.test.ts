/**
 * harness/README.md's table of checks in step with the registry: every check is a row, once; no row
 * names a check the harness lacks; each row's defects are the reference agency's defects tied to
 * that check (fixtures/agency-reference/defects.ts), and a check that never fails says so.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { DEFECTS } from '../../fixtures/agency-reference/defects.js';
import { CHECKS } from '../../harness/checks/registry.js';
import { packageRoot } from '../../harness/paths.js';

interface Row {
  id: string;
  defects: string[];
}

/** The rows of the table under `## Checks`: `| \`id\` | title | \`defect\`, … |`. */
function checkRows(readme: string): Row[] {
  const section = readme.split(/^## Checks$/m)[1]?.split(/^## /m)[0] ?? '';
  return section.split('\n').flatMap((line) => {
    const match = /^\| `([^`]+)` \| [^|]+ \| ([^|]+) \|$/.exec(line);
    return match ? [{ id: match[1]!, defects: [...match[2]!.matchAll(/`([^`]+)`/g)].map((found) => found[1]!) }] : [];
  });
}

const rows = checkRows(readFileSync(join(packageRoot(), 'harness', 'README.md'), 'utf8'));

test("harness/README.md lists every check of the registry once, and no other", () => {
  const listed = rows.map((row) => row.id);
  expect(listed.filter((id, index) => listed.indexOf(id) !== index)).toEqual([]);
  expect([...listed].sort()).toEqual(CHECKS.map((check) => check.id).sort());
});

test("each row names the defects that prove its check can fail, and only those", () => {
  const shown = Object.fromEntries(rows.map((row) => [row.id, [...row.defects].sort()]));
  const tied = Object.fromEntries(CHECKS.map((check) => [check.id, DEFECTS.filter((defect) => defect.check === check.id).map((defect) => defect.name).sort()]));
  expect(shown).toEqual(tied);
});

test('the table is read: a row dropped, doubled or naming an unknown check is seen', () => {
  const readme = readFileSync(join(packageRoot(), 'harness', 'README.md'), 'utf8');
  const row = readme.split('\n').find((line) => line.startsWith('| `pkce.s256` |'))!;
  const ids = (text: string) => checkRows(text).map((found) => found.id);
  expect(ids(readme.replace(`${row}\n`, ''))).not.toContain('pkce.s256');
  expect(ids(readme.replace(row, `${row}\n${row}`)).filter((id) => id === 'pkce.s256')).toHaveLength(2);
  expect(ids(readme.replace(row, row.replace('pkce.s256', 'pkce.made_up')))).toContain('pkce.made_up');
});
