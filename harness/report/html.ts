/**
 * report.html, for the brand: the verdict first (approve, do not approve, incomplete), then the
 * failures, each with what was seen, how to fix it, the rule and the reference agency's file that
 * does it right (companions.ts writes the rules and that file as pages beside it), then the inconclusive checks, then the passes, then the screenshots. One file that
 * opens offline: every screenshot inlined, no script, no external resource.
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CheckReport } from '../checks/evaluate.js';
import { CHECK_BY_ID } from '../checks/registry.js';
import { GROUPS, type Status } from '../checks/types.js';
import { writeReferencePage, writeRulesPage } from './companions.js';
import { escapeHtml as html } from './escape.js';
import { REPORT_FILES } from './files.js';
import { GALLERY_CSS, galleryHtml, screenshotsOf } from './gallery.js';
import { LEGEND, TELLS_HEADING, howToApprove, promotionLine, traceCommand, verdictLine, verdictTitle } from './legend.js';
import type { Report, Reporter, ReporterOptions } from './types.js';

/** The report's sections, in reading order. */
const SECTIONS: ReadonlyArray<{ id: string; heading: string; statuses: Status[] }> = [
  { id: 'failures', heading: 'Failures', statuses: ['fail'] },
  { id: 'inconclusive', heading: 'Inconclusive: not judged', statuses: ['inconclusive'] },
  { id: 'to-read', heading: 'Passed, with something to read or review', statuses: ['warn', 'manual'] },
  { id: 'passes', heading: 'Passes', statuses: ['pass'] },
];

const CSS = `body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:70rem;padding:1rem;color:#1d1b18}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ccc}
.banner{padding:1rem 1.2rem;border-radius:8px;color:#fff;margin-bottom:1rem}.banner h1{margin:0;font-size:2rem}.banner p{margin:.3rem 0 0}
.banner.approve{background:#2e7d32}.banner.reject{background:#b3261e}.banner.incomplete{background:#6a1b9a}.counts span{margin-right:1rem;white-space:nowrap}
.checks{list-style:none;padding:0}.checks>li{margin:.6rem 0;padding:.5rem .8rem;border-left:6px solid #999;background:#f7f7f7}
.pass{border-color:#2e7d32!important}.fail{border-color:#b3261e!important;background:#fdecea!important}.warn{border-color:#b26a00!important}.manual{border-color:#1f5fbf!important}.inconclusive{border-color:#7b1fa2!important;background:#f6ecf8!important}
.status{font-weight:700;display:inline-block;min-width:5rem}.id{font-family:ui-monospace,monospace}.checks p{margin:.2rem 0}.label{font-weight:600}
details{font-size:.9rem}.meta td{padding:0 1rem 0 0;vertical-align:top}code{word-break:break-all}
${GALLERY_CSS}`;

/** Links to the pages beside the report (companions.ts): a rule's row, the reference agency's file; undefined where the package has none. */
interface Links {
  rule?: (rule: string) => string;
  reference: (path: string) => string | undefined;
}

function companions(outDir: string): Links {
  const written = new Map<string, string | undefined>();
  const rule = writeRulesPage(outDir);
  return {
    ...(rule ? { rule } : {}),
    reference: (path) => {
      if (!written.has(path)) written.set(path, writeReferencePage(outDir, path));
      return written.get(path);
    },
  };
}

export function htmlReporter(options: ReporterOptions): Reporter {
  return {
    onEnd(report) {
      writeFileSync(join(options.outDir, REPORT_FILES.html), page(report, options.outDir));
    },
  };
}

/** report.html, written to `written` (where the run's files are until the report folder is put in place); its links are relative to the report folder. */
function page(report: Report, written: string): string {
  const { summary, run } = report;
  const verdict = verdictTitle(summary);
  const links = companions(written);
  const outDir = run.out_dir;
  const sections = SECTIONS.flatMap(({ id, heading, statuses }) => {
    const checks = report.checks.filter((check) => statuses.includes(check.status));
    return checks.length ? [`<section id="${id}"><h2>${html(heading)} (${checks.length})</h2><ul class="checks">${checks.map((check) => checkItem(check, outDir, links)).join('')}</ul></section>`] : [];
  });
  const counts = (['fail', 'inconclusive', 'warn', 'manual', 'pass'] as const).map((status) => `<span>${summary[status]} ${status}</span>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(verdict.title)}: agency verification of ${html(run.callback)}</title>
<style>
${CSS}
</style></head><body>
<header id="verdict" class="banner ${verdict.tone}"><h1>${html(verdict.title)}</h1><p class="counts">${counts}<span>${report.checks.length} checks</span></p><p><strong>${html(verdictLine(summary))}</strong></p>${verdict.tone === 'approve' ? `<p class="approve-how">${html(howToApprove(run))}</p>` : ''}</header>
<table class="meta"><tr><td>Promotion</td><td>${html(`${run.promotion.name}: ${promotionLine(run)}`)}</td></tr>
<tr><td>Callback</td><td>${html(run.callback)}</td></tr><tr><td>Preview</td><td>${html(run.preview ?? '(none)')}</td></tr>
<tr><td>Emulator</td><td>${html(run.emulator)}</td></tr><tr><td>Run</td><td>${html(run.started_at)}, ${(run.duration_ms / 1000).toFixed(1)} s, harness ${html(run.harness_version)}</td></tr>
${run.notes.map((note) => `<tr><td>Note</td><td>${html(note)}</td></tr>`).join('')}
${run.allowances.map((allowance) => `<tr><td>Allowed by the config</td><td><code>${html(allowance.setting)}</code> (can change ${allowance.checks.length} check(s))</td></tr>`).join('')}
${run.tells.length ? `<tr><td>Still a tell</td><td>${html(TELLS_HEADING)}:<ul>${run.tells.map((tell) => `<li>${html(tell)}</li>`).join('')}</ul></td></tr>` : ''}</table>
${sections.join('\n')}
<section id="screenshots"><h2>Screenshots of every state (mobile and desktop)</h2><p>Select a screenshot to open it full size.</p><div class="gallery">${galleryHtml(screenshotsOf(report.checks).map((shot) => ({ ...shot, path: join(written, relative(outDir, shot.path)) })))}</div></section>
<section><h2>How to read this report</h2><ul>${LEGEND.map((line) => `<li>${html(line)}</li>`).join('')}</ul></section>
</body></html>
`;
}

function checkItem(check: CheckReport, outDir: string, links: Links): string {
  const guidance = CHECK_BY_ID.get(check.id)?.guidance;
  const lines: string[] = [`<p class="seen"><span class="label">${check.status === 'pass' ? 'Seen' : 'What was seen'}:</span> ${html(check.reason)}</p>`];
  if (check.configure) lines.push(`<p class="configure"><span class="label">Configure:</span> ${html(check.configure)}</p>`);
  for (const setting of check.allowed_by ?? []) lines.push(`<p class="allowed"><span class="label">Allowed by the config:</span> <code>${html(setting)}</code></p>`);
  if (guidance && check.status === 'fail') lines.push(`<p class="fix"><span class="label">How to fix it:</span> ${html(guidance.fix)}</p>`);
  const rules = (guidance?.rules ?? []).map((rule) => (links.rule ? `<a href="${html(links.rule(rule))}">${html(rule)}</a>` : html(rule))).join(', ');
  lines.push(`<p class="rule"><span class="label">The rule:</span> ${html(check.title)} (spec ${html(check.spec)}${rules ? `; the rules: ${rules}` : ''})</p>`);
  if (guidance && check.status !== 'pass') {
    const page = links.reference(guidance.reference);
    const name = `<code>${html(guidance.reference)}</code>`;
    lines.push(`<p class="reference"><span class="label">Done right in:</span> ${page ? `<a href="${html(page)}">${name}</a>` : name} (the reference agency's code${page ? ', copied into this folder' : ''})</p>`);
  }
  const traces = check.evidence.filter((item) => item.path?.endsWith('.zip'));
  for (const trace of traces) {
    const file = relative(outDir, trace.path!);
    lines.push(`<p class="trace"><span class="label">Trace:</span> <a href="${html(file)}">${html(file)}</a>; open it from the report folder with <code>${html(traceCommand(file))}</code></p>`);
  }
  if (check.evidence.length) {
    lines.push(`<details${check.status === 'fail' ? ' open' : ''}><summary>Evidence (${check.evidence.length})</summary><ul>${check.evidence.map((item) => `<li>${html(item.label)}${item.path ? ` <a href="${html(relative(outDir, item.path))}">${html(relative(outDir, item.path))}</a>` : ''}</li>`).join('')}</ul></details>`);
  }
  return `<li class="${check.status}" id="check-${html(check.id)}"><span class="status">${check.status.toUpperCase()}</span> <span class="id">${html(check.id)}</span> <span class="group">(${html(GROUPS[check.group])})</span>${lines.join('')}</li>`;
}
