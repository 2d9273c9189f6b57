/**
 * The reference agency passes every check in a full verify, after a short run (the sandbox previews
 * and the won journey) and an `emulator reset` of the same emulator: the verify registers the
 * callback URLs again, runs the six sandbox scenarios through the preview, approves, and drives every
 * production scenario, on a world that hands out the same pack codes as the run before, to an agency
 * that is not restarted. Its reports are checked for their formats.
 *
 * The reset is proven here, not left to the defect matrices' live turns: those give each of their two
 * live runs an emulator of its own on two cores (useRunMatrix), so none runs on a reset world there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CHECKS } from '../../harness/checks/registry.js';
import type { Report } from '../../harness/report/types.js';
import { BEFORE_RESET, expectEveryCheckPassed, verifyAfterReset } from './runs.js';
import { type HarnessWorld, harnessWorld } from './world.js';

let world: HarnessWorld;
let before: Report;
let report: Report;
const terminal = { stdout: '', stderr: '' };
const capture = (into: 'stdout' | 'stderr') => new Writable({ write: (chunk, _encoding, done) => ((terminal[into] += String(chunk)), done()) });

beforeAll(async () => {
  world = await harnessWorld();
  ({ before, after: report } = await verifyAfterReset(world, { install: 'attempt' }, { formats: ['text', 'json', 'junit', 'html'], reporters: undefined, stdout: capture('stdout'), stderr: capture('stderr') }));
}, 480_000);

afterAll(async () => {
  await world?.close();
});

test('a short run, an emulator reset, then a full verify: exit 0 each time, no check failed or inconclusive, every scenario run to its end, every check exercised', () => {
  expectEveryCheckPassed([before], BEFORE_RESET);
  expectEveryCheckPassed([report]);
  for (const run of [before, report]) expect(run.scenarios.filter((scenario) => scenario.status !== 'passed')).toEqual([]);
});

test('the terminal shows progress on stderr, the evidence rules and the checklist on stdout, grouped, with a reason for each non-pass and the verdict', () => {
  expect(terminal.stderr).toMatch(/\[harness\] \[\d+\/19\] sandbox-previews ok/);
  expect(terminal.stdout).toContain('PASS needs positive evidence: at least one observation of what the check judges, from scenarios that all ran to their end.');
  expect(terminal.stdout).toContain('API coverage\n  PASS         coverage.sandbox_calls');
  expect(terminal.stdout).toMatch(/WARN {9}callback\.cookie_flags .*\n {15}agency_session is not Secure: .*\n {15}evidence: .*evidence\/callback\.cookie_flags\.json/);
  expect(terminal.stdout).toMatch(/50 checks: 48 pass, 0 fail, 1 warn, 1 manual, 0 inconclusive · \d+\.\d s\nexit 0: every check passed on positive evidence/);
  expect(terminal.stdout).not.toMatch(/\u001b\[/);
});

test('report.json: {checks: [{id, title, status, reason, evidence}]}, the run metadata and the verdict with its rules', () => {
  const json = JSON.parse(readFileSync(join(world.target.out, 'report.json'), 'utf8')) as {
    checks: Array<Record<string, unknown>>; run: Record<string, unknown>; summary: Record<string, number>; verdict: { exit_code: number; rules: string[] };
  };
  expect(json.checks).toHaveLength(CHECKS.length);
  for (const check of json.checks) {
    expect(Object.keys(check)).toEqual(expect.arrayContaining(['id', 'title', 'status', 'reason', 'evidence']));
    expect(['pass', 'fail', 'warn', 'manual', 'inconclusive']).toContain(check.status);
    expect(Array.isArray(check.evidence)).toBe(true);
  }
  expect(json.run).toMatchObject({ callback: world.agency.callbackUrl, preview: world.agency.previewUrl, emulator: world.emulator.baseUrl, only: null });
  expect(typeof json.run.duration_ms).toBe('number');
  expect(json.summary).toEqual({ pass: 48, fail: 0, warn: 1, manual: 1, inconclusive: 0 });
  expect(json.verdict.exit_code).toBe(0);
  expect(json.verdict.rules.join(' ')).toMatch(/Exit codes: 0 .* 3 no check failed but one is inconclusive/);
});

test('junit.xml is well-formed: one suite per group, one case per check, nothing unescaped', () => {
  const xml = readFileSync(join(world.target.out, 'junit.xml'), 'utf8');
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
  expect(wellFormed(xml)).toBe(true);
  expect(xml.match(/<testcase /g)).toHaveLength(CHECKS.length);
  expect(xml).toMatch(/<testsuites name="harness verify" tests="50" failures="0" errors="0" skipped="1"/);
  expect(xml).toContain('<skipped message="manual review: ');
});

test('report.html is one self-contained file: the verdict first, the evidence rules, every screenshot inlined and labelled, no external resource, content escaped', () => {
  const html = readFileSync(join(world.target.out, 'report.html'), 'utf8');
  expect(html).toContain('<h2>How to read this report</h2>');
  expect(html).toContain('<strong>exit 0: every check passed on positive evidence');
  expect(html).toMatch(/<body>\n<header id="verdict" class="banner approve"><h1>Approve<\/h1><p class="counts"><span>0 fail<\/span><span>0 inconclusive<\/span><span>1 warn<\/span><span>1 manual<\/span><span>48 pass<\/span>/);
  // The gallery labels states as a person says them, in mobile and desktop pairs.
  expect(html).toContain('<figcaption>Won, production, mobile</figcaption>');
  expect(html).toContain('<figcaption>Won, production, desktop</figcaption>');
  expect(html).not.toMatch(/<figcaption>[a-z]+:/);
  const screenshots = report.checks.find((check) => check.id === 'review.screenshots')!.evidence.filter((item) => item.path?.endsWith('.png'));
  expect(screenshots.length).toBeGreaterThanOrEqual(30);
  expect(screenshots.every((item) => existsSync(item.path!))).toBe(true);
  expect(html.match(/<img [^>]*src="data:image\/png;base64,/g)).toHaveLength(screenshots.length);
  expect(html).not.toMatch(/<(script|link)\b|src="http|url\(/i);
  // The terms markup the harness injected is shown escaped, never as markup, in the evidence.
  expect(html).not.toContain('<b data-harness-probe');
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
