/**
 * The report folder is the harness's own (issue 48 item 4): it is known by the mark a run leaves in
 * it, and anything else is refused untouched; a symbolic link stays one; runs publishing at once
 * never throw nor leave a half report; a run killed before its end leaves a staging folder the next
 * run removes and names; a run without a verdict removes only an earlier report, not one published
 * while it ran. report/folder.ts in process, on temporary folders (runs at once: the built module, in processes of their own).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { HarnessError } from '../../harness/errors.js';
import { REPORT_MARK, claimReportFolder, folderContents } from '../../harness/report/folder.js';

const FOLDER_JS = fileURLToPath(new URL('../../dist/harness/report/folder.js', import.meta.url));

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'report-folder-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** A run's report: its staging folder holding `report.json` saying whose it is, published. */
function publishReport(out: string, run: string): void {
  const claimed = claimReportFolder(out);
  writeFileSync(join(claimed.staging, 'report.json'), run);
  mkdirSync(join(claimed.staging, 'evidence'));
  writeFileSync(join(claimed.staging, 'evidence', 'check.json'), '{}');
  claimed.publish();
}

test("a folder of the user's files, even named as a run names its own (screenshots/, a file named evidence), is refused and left as it was", () => {
  const out = join(folder, 'mine');
  mkdirSync(join(out, 'screenshots'), { recursive: true });
  writeFileSync(join(out, 'screenshots', 'beach.png'), 'png');
  writeFileSync(join(out, 'evidence'), 'a file');
  expect(() => claimReportFolder(out)).toThrow(HarnessError);
  expect(() => claimReportFolder(out)).toThrow(`--out ${out} holds evidence, screenshots without the ${REPORT_MARK} mark a run leaves in its report folder`);
  expect(readdirSync(out).sort()).toEqual(['evidence', 'screenshots']);
  expect(readdirSync(folder)).toEqual(['mine']);
});

test('a published report carries the mark, and the next run replaces it; the terminal names what the folder holds', () => {
  const out = join(folder, 'harness-report');
  publishReport(out, 'first');
  expect(readdirSync(out).sort()).toEqual([REPORT_MARK, 'evidence', 'report.json']);
  expect(folderContents(out)).toBe('report.json, evidence/');
  publishReport(out, 'second');
  expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe('second');
  expect(readdirSync(folder)).toEqual(['harness-report']);
  rmSync(join(out, 'report.json'));
  expect(folderContents(out)).toBe('evidence/ (no report file: --format html,json,junit,markdown writes them)');
  rmSync(join(out, 'evidence', 'check.json'));
  expect(folderContents(out)).toBe('nothing (no report file: --format html,json,junit,markdown writes them)');
});

test('--out as a symbolic link stays a link: the folder it points to holds the report', () => {
  const real = join(folder, 'real');
  const link = join(folder, 'link');
  mkdirSync(real);
  symlinkSync(real, link);
  publishReport(link, 'one');
  publishReport(link, 'two');
  expect(lstatSync(link).isSymbolicLink()).toBe(true);
  expect(readFileSync(join(real, 'report.json'), 'utf8')).toBe('two');
});

test('runs publishing to one --out at once, each in its own process: none throws, none deletes the report in place, a whole report is left', async () => {
  const out = join(folder, 'harness-report');
  publishReport(out, 'earlier');
  const at = Date.now() + 1500;
  // Each process claims, writes, and publishes at the same instant as the others (the built module).
  const script = `const { claimReportFolder } = await import(${JSON.stringify(FOLDER_JS)}); const { writeFileSync } = await import('node:fs');
    const claimed = claimReportFolder(process.argv[1]); writeFileSync(claimed.staging + '/report.json', 'run ' + process.pid);
    while (Date.now() < ${at}); claimed.publish();`;
  const runs = await Promise.all(Array.from({ length: 12 }, () => new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, out], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stderr }));
  })));
  expect(runs.filter((run) => run.code !== 0)).toEqual([]);
  expect(readFileSync(join(out, 'report.json'), 'utf8')).toMatch(/^run \d+$/);
  expect(readdirSync(out).sort()).toEqual([REPORT_MARK, 'report.json']);
  expect(readdirSync(folder)).toEqual(['harness-report']);
}, 30_000);

test('a run without a verdict removes the earlier report and says so; a report published while it ran stays', () => {
  const out = join(folder, 'harness-report');
  publishReport(out, 'earlier');
  expect(claimReportFolder(out).discard()).toBe(true);
  expect(existsSync(out)).toBe(false);

  const loser = claimReportFolder(out);
  publishReport(out, 'winner');
  expect(loser.discard()).toBe(false);
  expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe('winner');
});

test("a staging folder left by a run that was killed (its process gone) is removed by the next run, which names it; a living run's is left", () => {
  const out = join(folder, 'harness-report');
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  const left = join(folder, '.harness-report-run-KILLED');
  mkdirSync(left);
  writeFileSync(join(left, '.harness-run'), JSON.stringify({ pid: dead, host: hostname() }));
  const living = claimReportFolder(out);
  expect(living.cleaned).toBe('removed 1 staging folder(s) an earlier run left beside harness-report (.harness-report-run-KILLED)');
  expect(existsSync(left)).toBe(false);
  const next = claimReportFolder(out);
  expect(next.cleaned).toBeUndefined();
  expect(existsSync(living.staging)).toBe(true);
  next.discard();
  living.discard();
  expect(readdirSync(folder)).toEqual([]);
});
