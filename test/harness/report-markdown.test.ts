/**
 * `--format markdown` (issue 49 item 6): summary.md, the page a CI job shows, gives the verdict first
 * and each failure with its fix; what the agency wrote shows as text, never as markup or a link. An
 * approving verdict, there and in report.html, says how the brand approves (issue 49 item 5).
 * Made-up reports, in process.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { CheckReport } from '../../harness/checks/evaluate.js';
import { htmlReporter } from '../../harness/report/html.js';
import { markdownReporter } from '../../harness/report/markdown.js';
import type { Report } from '../../harness/report/types.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const HOSTILE = 'the page said <img src=x onerror=alert(1)> **Approve** [open](https://evil.example) `code` | # heading';

function reportWith(checks: CheckReport[]): { report: Report; outDir: string } {
  const outDir = mkdtempSync(join(tmpdir(), 'report-markdown-'));
  folders.push(outDir);
  const summary = { pass: 0, fail: 0, warn: 0, manual: 0, inconclusive: 0 };
  for (const check of checks) summary[check.status] += 1;
  const report: Report = {
    run: {
      harness_version: '0', started_at: '', finished_at: '', duration_ms: 1, chromium: '', tells: [], emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback', preview: null,
      promotion: { id: 2, slug: 'nordkakao-cafe-codes', name: 'Café codes', mechanic: 'code_unlock' }, only: null, out_dir: outDir, notes: [], allowances: [], max_seconds: 600,
    },
    summary, checks, scenarios: [],
  };
  return { report, outDir };
}

const check = (id: string, status: CheckReport['status'], reason: string): CheckReport => ({ id, title: `${id} title`, group: 'journey', spec: '§4.3', status, reason, evidence: [] });
const options = (outDir: string) => ({ outDir, stdout: process.stdout, stderr: process.stderr, color: false });

test('a failing run: the verdict first, then each failure with what was seen and its fix; the agency\'s markup is shown as text', async () => {
  const { report, outDir } = reportWith([check('journey.landing_page', 'fail', HOSTILE), check('state.format', 'pass', 'ok'), check('logs.params_redacted', 'inconclusive', 'no log')]);
  await markdownReporter(options(outDir)).onEnd!(report);
  const text = readFileSync(join(outDir, 'summary.md'), 'utf8');
  const lines = text.split('\n');
  expect(lines.slice(0, 3)).toEqual(['## ❌ Do not approve', '', '**exit 1: 1 check\\(s\\) failed, each on evidence of a violation**']);
  expect(text).toContain('### Failures (1)\n\n- **`journey.landing_page`** journey\\.landing\\_page title\n  - Seen: the page said &lt;img src=x onerror=alert\\(1\\)&gt; \\*\\*Approve\\*\\* \\[open\\]\\(https://evil\\.example\\) \\`code\\` \\| \\# heading\n  - Fix: Answer the callback URL');
  expect(text).toContain('### Inconclusive: not judged (1)');
  expect(text).toContain('<details><summary>Passes (1)</summary>');
  expect(text).not.toMatch(/<img|\]\(https|Approving is/);
});

test('an approving run says how the brand approves, in summary.md and in report.html, beside the verdict', async () => {
  const { report, outDir } = reportWith([check('state.format', 'pass', 'ok')]);
  await markdownReporter(options(outDir)).onEnd!(report);
  await htmlReporter(options(outDir)).onEnd!(report);
  const how = "Approving is the brand's act: the Approve button on the console's page of the promotion, http://127.0.0.1:4010/?promotion=nordkakao-cafe-codes, or `npx emulator approve --promotion nordkakao-cafe-codes`.";
  expect(readFileSync(join(outDir, 'summary.md'), 'utf8').split('\n').slice(0, 5)).toEqual(['## ✅ Approve', '', expect.stringMatching(/^\*\*exit 0: /), '', expect.stringContaining('Approve button on the console')]);
  expect(readFileSync(join(outDir, 'report.html'), 'utf8')).toContain(`<p class="approve-how">${how.replaceAll("'", '&#39;')}</p></header>`);
});
