/**
 * The README's first command: after the install (`npm ci`, which the suite's own setup did), `npm run
 * demo` as written starts the emulator and the reference agency, verifies the agency, prints the
 * checklist and the verdict, writes the brand's report to harness-report/, and stops both.
 *
 * Its run is also the suite's full live verify of the reference agency (issue 25: one verify carries
 * what two did): every check passes, every scenario runs to its end, and the terminal and the four
 * report formats are checked here. A run after an emulator reset is proven on the single-page agency
 * (spa.test.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { CHECKS } from '../harness/checks/registry.js';
import type { Report } from '../harness/report/types.js';
import { expectEveryCheckPassed } from './harness/runs.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'harness-report');

let run: { code: number | null; stdout: string; stderr: string };
let report: Report & { verdict: { exit_code: number; rules: string[] } };

beforeAll(async () => {
  run = await new Promise((resolve) => {
    const child = spawn('npm', ['run', 'demo'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  if (run.code === 0) report = JSON.parse(readFileSync(join(OUT, 'report.json'), 'utf8')) as typeof report;
}, 600_000);

test('npm run demo: exit 0, every check passed, the report written, the emulator stopped', () => {
  expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('npm ci && npm run demo');
  expect(run.code, `${run.stdout}\n${run.stderr}`.slice(-4000)).toBe(0);
  expect(run.stdout).toContain('exit 0: every check passed on positive evidence');
  expect(run.stdout).toContain('[demo] harness verify exited 0');
  expect(run.stdout).toContain('[emulator] stopped the emulator');
  expect(`${run.stdout}${run.stderr}`).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  expect(existsSync(join(OUT, 'report.html'))).toBe(true);
});

test('the reference agency passes a full verify: no check failed or inconclusive, every scenario run to its end, every check exercised', () => {
  expectEveryCheckPassed([report]);
  expect(report.scenarios.filter((scenario) => scenario.status !== 'passed')).toEqual([]);
});

test('the terminal shows progress on stderr, the evidence rules and the checklist on stdout, grouped, with a reason for each non-pass and the verdict', () => {
  expect(run.stderr).toMatch(/\[harness\] \[\d+\/19\] sandbox-previews ok/);
  expect(run.stdout).toContain('PASS needs positive evidence: at least one observation of what the check judges, from scenarios that all ran to their end.');
  expect(run.stdout).toContain('API coverage\n  PASS         coverage.sandbox_calls');
  expect(run.stdout).toMatch(/WARN {9}callback\.cookie_flags .*\n {15}agency_session is not Secure: .*\n {15}evidence: .*evidence\/callback\.cookie_flags\.json/);
  expect(run.stdout).toMatch(/50 checks: 48 pass, 0 fail, 1 warn, 1 manual, 0 inconclusive · \d+\.\d s\nexit 0: every check passed on positive evidence/);
  expect(`${run.stdout}${run.stderr}`).not.toMatch(/\u001b\[/);
});

test('report.json: {checks: [{id, title, status, reason, evidence}]}, the run metadata and the verdict with its rules', () => {
  expect(report.checks).toHaveLength(CHECKS.length);
  for (const check of report.checks) {
    expect(Object.keys(check)).toEqual(expect.arrayContaining(['id', 'title', 'status', 'reason', 'evidence']));
    expect(['pass', 'fail', 'warn', 'manual', 'inconclusive']).toContain(check.status);
    expect(Array.isArray(check.evidence)).toBe(true);
  }
  const emulator = /\[demo\] emulator at (\S+)/.exec(run.stdout)?.[1];
  const agency = /\[demo\] reference agency at (\S+)/.exec(run.stdout)?.[1];
  expect(report.run).toMatchObject({ callback: `${agency}/callback`, preview: `${agency}/preview`, emulator, only: null });
  expect(typeof report.run.duration_ms).toBe('number');
  expect(report.summary).toEqual({ pass: 48, fail: 0, warn: 1, manual: 1, inconclusive: 0 });
  expect(report.verdict.exit_code).toBe(0);
  expect(report.verdict.rules.join(' ')).toMatch(/Exit codes: 0 .* 3 no check failed but one is inconclusive/);
});

test('junit.xml is well-formed: one suite per group, one case per check, nothing unescaped', () => {
  const xml = readFileSync(join(OUT, 'junit.xml'), 'utf8');
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
  expect(wellFormed(xml)).toBe(true);
  expect(xml.match(/<testcase /g)).toHaveLength(CHECKS.length);
  expect(xml).toMatch(/<testsuites name="harness verify" tests="50" failures="0" errors="0" skipped="1"/);
  expect(xml).toContain('<skipped message="manual review: ');
});

test('report.html is one self-contained file: the verdict first, the evidence rules, every screenshot inlined and labelled, no external resource, content escaped', () => {
  const html = readFileSync(join(OUT, 'report.html'), 'utf8');
  expect(html).toContain('<h2>How to read this report</h2>');
  expect(html).toContain('<strong>exit 0: every check passed on positive evidence');
  expect(html).toMatch(/<body>\n<header id="verdict" class="banner approve"><h1>Approve<\/h1><p class="counts"><span>0 fail<\/span><span>0 inconclusive<\/span><span>1 warn<\/span><span>1 manual<\/span><span>48 pass<\/span>/);
  // The gallery labels states as a person says them, in mobile and desktop pairs.
  expect(html).toContain('<figcaption>Won, production, mobile</figcaption>');
  expect(html).toContain('<figcaption>Won, production, desktop</figcaption>');
  expect(html).not.toMatch(/<figcaption>[a-z]+:/);
  const screenshots = report.checks.find((check) => check.id === 'review.screenshots')!.evidence.filter((item) => item.path?.endsWith('.png'));
  expect(screenshots.length).toBeGreaterThanOrEqual(30);
  expect(screenshots.every((item) => existsSync(join(OUT, item.path!)))).toBe(true);
  expect(html.match(/<img [^>]*src="data:image\/png;base64,/g)).toHaveLength(screenshots.length);
  expect(html).not.toMatch(/<(script|link)\b|src="http|url\(/i);
  // The terms markup the harness injected is shown escaped, never as markup, in the evidence.
  expect(html).not.toMatch(/<b data-[a-z]{8}="b"/);
});

/** Tags balance and every attribute is quoted: enough to catch an unescaped "<" or "&" from the run. */
function wellFormed(xml: string): boolean {
  const stack: string[] = [];
  for (const match of xml.replace(/<\?xml[^>]*\?>/, '').matchAll(/<(\/?)([a-z-]+)((?:\s+[a-z_-]+="[^"<]*")*)\s*(\/?)>|([<&])/gi)) {
    const [, closing, name, , selfClosing, stray] = match;
    if (stray === '<') return false;
    if (stray === '&' && !/^&(lt|gt|amp|quot|apos);/.test(xml.slice(match.index, match.index + 6))) return false;
    if (stray) continue;
    if (closing) {
      if (stack.pop() !== name) return false;
    } else if (!selfClosing) stack.push(name!);
  }
  return stack.length === 0;
}
