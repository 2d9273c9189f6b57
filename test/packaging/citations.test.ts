/**
 * Every citation a user can follow resolves to a file they have (issue 40 item 1): nothing cites the
 * team's own reading (the contract's source files outside the repository), every relative link of the
 * repository's Markdown resolves in the repository, and the Markdown the package ships (its README and
 * the READMEs and rules beside it) cites only files the package has.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './support.js';

/** Where a user reads: the docs, the decisions, the sources the package is built from, the scripts. */
const READ = ['README.md', 'docs', 'fixtures', 'harness', 'emulator', 'scripts', 'decisions'];
/** The paths the team reads and a user does not have. */
const OUTSIDE = /\.\.\/shared|DESIGN\.md|service-spec\.md/;

function markdownFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n');
  return listed.filter((file) => existsSync(join(ROOT, file)));
}

/** Markdown without what a reader does not see as text to follow: comments and code blocks. */
function prose(markdown: string): string {
  return markdown.replace(/<!--[\s\S]*?-->/g, '').replace(/^\s*```[\s\S]*?^\s*```/gm, '');
}

/** The relative links and images of a Markdown file, without their fragments. */
function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!.replace(/#.*$/, ''))
    .filter((target) => target !== '' && !/^[a-z][a-z+.-]*:/i.test(target));
}

test('nothing a user reads cites the contract by a path outside the repository', () => {
  const grep = spawnSync('git', ['grep', '-n', '-I', '-E', OUTSIDE.source, '--', ...READ], { cwd: ROOT, encoding: 'utf8' });
  expect(grep.status, grep.stderr).not.toBe(2);
  expect(grep.stdout.split('\n').filter(Boolean)).toEqual([]);
});

test('every relative link of the repository\'s Markdown resolves to a file of the repository', () => {
  const broken = markdownFiles().flatMap((file) =>
    relativeLinks(readFileSync(join(ROOT, file), 'utf8')).filter((target) => !existsSync(join(ROOT, dirname(file), target))).map((target) => `${file} → ${target}`),
  );
  expect(broken).toEqual([]);
});

test('the Markdown the package ships cites only files the package has', () => {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: ROOT, encoding: 'utf8' })) as Array<{ files: Array<{ path: string }> }>;
  const files = new Set(packed[0]!.files.map((file) => file.path));
  const has = (path: string) => files.has(path) || [...files].some((file) => file.startsWith(`${path.replace(/\/$/, '')}/`));
  // The repository's own top-level names, not what a run left in the checkout (harness-report/, a data folder).
  const top = new Set(execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').map((path) => path.split('/')[0]!));
  const shipped = [...files].filter((file) => file.endsWith('.md'));
  expect(shipped).toEqual(expect.arrayContaining(['README.md', 'harness/README.md', 'fixtures/agency-reference/README.md', 'docs/rules.md']));
  const missing = shipped.flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const links = relativeLinks(text).map((target) => normalize(join(dirname(file), target)));
    // The package's README also names files in code spans; its last section is about the repository and says so.
    const cited = file === 'README.md' ? [...prose(text.slice(0, text.indexOf('\n## Working on promo-emulator'))).matchAll(/`([\w.-]+\/[^`\s]*)`/g)].map((match) => match[1]!).filter((path) => top.has(path.split('/')[0]!)) : [];
    return [...links, ...cited].filter((path) => !has(path)).map((path) => `${file} → ${path}`);
  });
  expect(missing).toEqual([]);
});
