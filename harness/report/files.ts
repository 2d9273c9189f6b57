/**
 * The report files: JSON, JUnit XML and one self-contained HTML page. No dependency: JUnit is a
 * few elements, and the HTML inlines its style and every screenshot as a data URL. Everything
 * from the run is escaped.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CheckReport } from '../checks/evaluate.js';
import { GROUPS } from '../checks/types.js';
import { LEGEND, exitCodeOf, promotionLine, verdictLine } from './legend.js';
import type { Reporter, ReporterOptions } from './types.js';

export const REPORT_FILES = { json: 'report.json', junit: 'junit.xml', html: 'report.html' } as const;

/** `{checks: [{id, title, status, reason, configure?, evidence}]}` plus the run's metadata, summary, exit code, the evidence rules and scenarios. */
export function jsonReporter(options: ReporterOptions): Reporter {
  return {
    onEnd(report) {
      const checks = report.checks.map(({ id, title, group, spec, status, reason, configure, evidence }) => ({
        id, title, group, spec, status, reason, ...(configure ? { configure } : {}), evidence: evidence.map((item) => (item.path ? { ...item, path: relative(options.outDir, item.path) } : item)),
      }));
      const verdict = { exit_code: exitCodeOf(report.summary), meaning: verdictLine(report.summary), rules: LEGEND };
      writeFileSync(join(options.outDir, REPORT_FILES.json), `${JSON.stringify({ run: report.run, summary: report.summary, verdict, checks, scenarios: report.scenarios }, null, 2)}\n`);
    },
  };
}

const xml = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** One test suite per checklist group, one test case per check; warn passes with a note; manual is skipped; inconclusive is an error (not judged). */
export function junitReporter(options: ReporterOptions): Reporter {
  return {
    onEnd(report) {
      const time = (report.run.duration_ms / 1000).toFixed(3);
      const suites = Object.entries(GROUPS).flatMap(([group, heading]) => {
        const checks = report.checks.filter((check) => check.group === group);
        if (checks.length === 0) return [];
        const count = (status: string) => checks.filter((check) => check.status === status).length;
        const cases = checks.map((check) => `    <testcase classname="harness.${xml(group)}" name="${xml(`${check.id}: ${check.title}`)}" time="0">${junitBody(check)}</testcase>`);
        return [`  <testsuite name="${xml(heading)}" tests="${checks.length}" failures="${count('fail')}" errors="${count('inconclusive')}" skipped="${count('manual')}" time="0">\n${cases.join('\n')}\n  </testsuite>`];
      });
      const { fail, inconclusive, manual } = report.summary;
      writeFileSync(
        join(options.outDir, REPORT_FILES.junit),
        `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="harness verify" tests="${report.checks.length}" failures="${fail}" errors="${inconclusive}" skipped="${manual}" time="${time}">\n${suites.join('\n')}\n</testsuites>\n`,
      );
    },
  };
}

function junitBody(check: CheckReport): string {
  const evidence = check.evidence.map((item) => `${item.label}${item.path ? ` (${item.path})` : ''}`).join('\n');
  switch (check.status) {
    case 'fail':
      return `\n      <failure message="${xml(check.reason)}" type="fail">${xml(evidence)}</failure>\n    `;
    case 'inconclusive':
      return `\n      <error message="${xml(`inconclusive: ${check.reason}`)}" type="inconclusive">${xml([check.configure ? `configure: ${check.configure}` : '', evidence].filter(Boolean).join('\n'))}</error>\n    `;
    case 'manual':
      return `\n      <skipped message="${xml(`manual review: ${check.reason}`)}"/>\n    `;
    case 'warn':
      return `\n      <system-out>${xml(`WARN: ${check.reason}\n${evidence}`)}</system-out>\n    `;
    case 'pass':
      return '';
  }
}

const html = (text: string) => text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[char]!);

/** For the brand: the checklist, the reasons and evidence, and every screenshot, in one file that opens offline. */
export function htmlReporter(options: ReporterOptions): Reporter {
  return {
    onEnd(report) {
      const sections = Object.entries(GROUPS).flatMap(([group, heading]) => {
        const checks = report.checks.filter((check) => check.group === group);
        return checks.length ? [`<section><h2>${html(heading)}</h2><ul class="checks">${checks.map((check) => checkItem(check, options.outDir)).join('')}</ul></section>`] : [];
      });
      const shots = report.checks.find((check) => check.id === 'review.screenshots')?.evidence.filter((item) => item.path?.endsWith('.png')) ?? [];
      const gallery = shots.map((item) => `<figure><img alt="${html(item.label)}" src="${dataUrl(item.path!)}"><figcaption>${html(item.label)}</figcaption></figure>`).join('');
      const { summary, run } = report;
      const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Agency verification: ${html(run.callback)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:70rem;padding:1rem;color:#1d1b18}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ccc}
.checks{list-style:none;padding:0}.checks li{margin:.6rem 0;padding:.5rem .8rem;border-left:6px solid #999;background:#f7f7f7}
.pass{border-color:#2e7d32!important}.fail{border-color:#b3261e!important;background:#fdecea!important}.warn{border-color:#b26a00!important}.manual{border-color:#1f5fbf!important}.inconclusive{border-color:#7b1fa2!important;background:#f6ecf8!important}
.status{font-weight:700;display:inline-block;min-width:5rem}.id{font-family:ui-monospace,monospace}.reason{margin:.2rem 0}
details{font-size:.9rem}.meta td{padding:0 1rem 0 0;vertical-align:top}
.gallery{display:flex;flex-wrap:wrap;gap:1rem}.gallery figure{margin:0;width:18rem}.gallery img{width:100%;border:1px solid #ccc}
</style></head><body>
<h1>Agency verification</h1>
<table class="meta"><tr><td>Promotion</td><td>${html(`${run.promotion.name}: ${promotionLine(run)}`)}</td></tr>
<tr><td>Callback</td><td>${html(run.callback)}</td></tr><tr><td>Preview</td><td>${html(run.preview ?? '(none)')}</td></tr>
<tr><td>Emulator</td><td>${html(run.emulator)}</td></tr><tr><td>Run</td><td>${html(run.started_at)}, ${(run.duration_ms / 1000).toFixed(1)} s, harness ${html(run.harness_version)}</td></tr>
<tr><td>Result</td><td>${summary.pass} pass, ${summary.fail} fail, ${summary.warn} warn, ${summary.manual} manual, ${summary.inconclusive} inconclusive</td></tr>
<tr><td>Verdict</td><td><strong>${html(verdictLine(summary))}</strong></td></tr>
${run.notes.map((note) => `<tr><td>Note</td><td>${html(note)}</td></tr>`).join('')}</table>
<section><h2>How to read this report</h2><ul>${LEGEND.map((line) => `<li>${html(line)}</li>`).join('')}</ul></section>
${sections.join('\n')}
<section><h2>Screenshots of every state (mobile and desktop)</h2><div class="gallery">${gallery || '<p>No screenshots in this run.</p>'}</div></section>
</body></html>
`;
      writeFileSync(join(options.outDir, REPORT_FILES.html), page);
    },
  };
}

function checkItem(check: CheckReport, outDir: string): string {
  const evidence = check.evidence.length
    ? `<details><summary>Evidence (${check.evidence.length})</summary><ul>${check.evidence
        .map((item) => `<li>${html(item.label)}${item.path ? ` <code>${html(relative(outDir, item.path))}</code>` : ''}</li>`)
        .join('')}</ul></details>`
    : '';
  const configure = check.configure ? `<p class="reason">Configure: ${html(check.configure)}</p>` : '';
  return `<li class="${check.status}"><span class="status">${check.status.toUpperCase()}</span> <span class="id">${html(check.id)}</span> ${html(check.title)}<p class="reason">${html(check.reason)}</p>${configure}${evidence}</li>`;
}

function dataUrl(path: string): string {
  try {
    return `data:image/png;base64,${readFileSync(path).toString('base64')}`;
  } catch {
    return '';
  }
}
