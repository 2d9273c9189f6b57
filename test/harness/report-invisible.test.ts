/**
 * What the agency cannot hide in a report (issue 48 item 3): characters that draw nothing or turn
 * text around are shown escaped, every report stays valid for its format, and text padded to the
 * terminal's width never starts a row of its own where the checklist shows a status word.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, expect, test } from 'vitest';
import type { CheckReport } from '../../harness/checks/evaluate.js';
import { showControls } from '../../harness/report/escape.js';
import { junitReporter } from '../../harness/report/files.js';
import { REPORTERS, multiplex } from '../../harness/report/registry.js';
import { textReporter } from '../../harness/report/text.js';
import type { Report } from '../../harness/report/types.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const newFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'report-invisible-'));
  folders.push(folder);
  return folder;
};

/** A stream as a terminal of `columns` presents itself, or a pipe without them. */
function captured(columns?: number): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({ write: (chunk, _encoding, done) => ((text += String(chunk)), done()) });
  if (columns) Object.assign(stream, { isTTY: true, columns });
  return { stream, text: () => text };
}

/** Characters a terminal draws as nothing or uses to turn text around. */
const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u200f', '\u200e', '\u061c', '\u00ad', '\u{e0041}'];
/** What XML 1.0 cannot hold: its two noncharacters of the basic plane, and a surrogate without its pair. */
const NOT_XML_CHARS = ['\ufffe', '\uffff', '\ud800'];
const XML_CHAR = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;

function reportOf(outDir: string, check: Partial<CheckReport>): Report {
  return {
    run: {
      harness_version: '0', started_at: '', finished_at: '', duration_ms: 1, chromium: '', tells: [], emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback', preview: null,
      promotion: { id: 1, slug: 'spring', name: 'Spring', mechanic: 'instant_win' }, only: null, out_dir: outDir, notes: [], allowances: [], max_seconds: 600,
    },
    summary: { pass: 0, fail: 1, warn: 0, manual: 0, inconclusive: 0 },
    checks: [{ id: 'journey.state.won', title: 'The won page', group: 'journey', spec: '§4', status: 'fail', reason: 'the page showed lost', evidence: [], ...check }],
    scenarios: [],
  };
}

test('zero-width, joiner, word-joiner, byte-order, bidirectional-mark, soft-hyphen and tag characters are shown as escapes', () => {
  for (const char of INVISIBLE) expect(showControls(`a${char}b`), `U+${char.codePointAt(0)!.toString(16)}`).toMatch(/^a\\(x[0-9a-f]{2}|u[0-9a-f]{4}|u\{[0-9a-f]+\})b$/);
  expect(showControls('Gewinn \u200bgratis\u{e0041}')).toBe('Gewinn \\u200bgratis\\u{e0041}');
  expect(showControls('Grüße, 🎉 żółć')).toBe('Grüße, 🎉 żółć');
});

test('junit.xml is well-formed whatever reaches its writer: U+FFFE, U+FFFF and a lone surrogate in a title and a reason', async () => {
  const outDir = newFolder();
  const hostile = `won${NOT_XML_CHARS.join('')}\u0001`;
  await junitReporter({ outDir, stdout: captured().stream, stderr: captured().stream, color: false }).onEnd!(reportOf(outDir, { title: hostile, reason: `landed on /done#${hostile}`, evidence: [{ label: hostile }] }));
  const junit = readFileSync(join(outDir, 'junit.xml'), 'utf8');
  expect(junit).toMatch(XML_CHAR);
  expect(junit).toContain('won\\ufffe\\uffff\\ud800\\u0001');
});

test('every report, through the multiplexer, shows the invisible and non-XML characters escaped', async () => {
  const outDir = newFolder();
  const [stdout, stderr] = [captured(), captured()];
  const reporters = Object.entries(REPORTERS).map(([name, make]) => [name, make({ outDir, stdout: stdout.stream, stderr: stderr.stream, color: false })] as const);
  const reason = `the page title was "Ge${INVISIBLE.join('')}winn${NOT_XML_CHARS.join('')}"`;
  await multiplex([...reporters], stderr.stream).onEnd(reportOf(outDir, { reason }));
  const outputs: Record<string, string> = { stdout: stdout.text(), ...Object.fromEntries(['report.json', 'junit.xml', 'report.html'].map((file) => [file, readFileSync(join(outDir, file), 'utf8')])) };
  for (const [where, text] of Object.entries(outputs)) {
    for (const char of [...INVISIBLE, ...NOT_XML_CHARS]) expect(text.includes(char), `${where} holds U+${char.codePointAt(0)!.toString(16)} raw`).toBe(false);
    expect(where === 'report.json' ? JSON.parse(text).checks[0].reason : text, where).toContain('Ge\\u200b\\u200c');
  }
  expect(outputs['junit.xml']).toMatch(XML_CHAR);
});

/** The rows a terminal of `columns` draws a printed text as: each line cut at its width. */
function drawn(text: string, columns: number): string[] {
  return text.split('\n').flatMap((line) => (line.length <= columns ? [line] : Array.from({ length: Math.ceil(line.length / columns) }, (_, index) => line.slice(index * columns, (index + 1) * columns))));
}

test.for([80, 100, 133])('on a terminal of %i columns, a reason padded to the width never draws a row that starts with a status word', (columns) => {
  const outDir = newFolder();
  const stdout = captured(columns);
  const reporter = textReporter({ outDir, stdout: stdout.stream, stderr: captured(columns).stream, color: true });
  // Padding for every place the reason may start a row: the agency cannot know the terminal's width, so it tries each.
  const padded = Array.from({ length: 60 }, (_, pad) => `${'x'.repeat(pad)}PASS journey.state.won  Shows the won page`).join(' ');
  void reporter.onEnd!(reportOf(outDir, { reason: `the page title was "${padded}"`, evidence: [{ label: 'page', path: join(outDir, 'x') }] }));
  const rows = drawn(stdout.text().replace(/\u001b\[[\d;]*m/g, ''), columns);
  expect(rows.filter((row) => /^\s*(PASS|FAIL|WARN|MANUAL|INCONCLUSIVE)\s+[a-z]+\.[a-z]/.test(row))).toEqual(['  FAIL         journey.state.won  The won page']);
  expect(rows.every((row) => row.length <= columns)).toBe(true);
});

test('on a pipe (no terminal width) each line is printed whole', () => {
  const stdout = captured();
  const outDir = newFolder();
  const long = 'y'.repeat(400);
  void textReporter({ outDir, stdout: stdout.stream, stderr: captured().stream, color: false }).onEnd!(reportOf(outDir, { reason: long }));
  expect(stdout.text()).toContain(`               ${long}\n`);
});
