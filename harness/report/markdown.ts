/**
 * summary.md (`--format markdown`): the page a CI job shows (GitHub's job summary, GitLab's, a
 * pull-request comment). The verdict first, and how to approve when it allows it; then each
 * failure with what was seen and its fix, each inconclusive check with what to configure, then
 * what passed with something to read; the passes last, folded. Whatever the agency wrote is shown
 * as text: Markdown and HTML in it are escaped, and a long reason is cut.
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CheckReport } from '../checks/evaluate.js';
import { CHECK_BY_ID } from '../checks/registry.js';
import { TELLS_HEADING, howToApprove, promotionLine, verdictLine, verdictTitle } from './legend.js';
import type { Report, Reporter, ReporterOptions } from './types.js';

export const SUMMARY_FILE = 'summary.md';

/** Longer than any reason the harness writes itself; an agency's page text beyond it is cut. */
const MAX_TEXT = 600;

/** Text as Markdown shows it, never as markup: one line, its Markdown and HTML characters escaped. */
export function markdownText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const cut = line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT)}…` : line;
  return cut.replace(/[\\`*_{}[\]()#+\-.!|<>&~"']/g, (char) => (char === '<' ? '&lt;' : char === '>' ? '&gt;' : char === '&' ? '&amp;' : `\\${char}`));
}

/** A failed check's one-line fix, from its guidance. */
function fixOf(id: string): string[] {
  const fix = CHECK_BY_ID.get(id)?.guidance.fix;
  return fix ? [`Fix: ${markdownText(fix)}`] : [];
}

export function markdownReporter(options: ReporterOptions): Reporter {
  return {
    onEnd(report) {
      writeFileSync(join(options.outDir, SUMMARY_FILE), summary(report));
    },
  };
}

function summary(report: Report): string {
  const { run, summary: counts } = report;
  const verdict = verdictTitle(counts);
  const icon = { approve: '✅', reject: '❌', incomplete: '⚠️' }[verdict.tone];
  const lines = [
    `## ${icon} ${verdict.title}`,
    '',
    `**${markdownText(verdictLine(counts))}**`,
    '',
    ...(verdict.tone === 'approve' ? [markdownText(howToApprove(run)), ''] : []),
    `${markdownText(`${run.promotion.name}: ${promotionLine(run)}`)}, callback ${markdownText(run.callback)}; ${report.checks.length} checks: ${counts.pass} pass, ${counts.fail} fail, ${counts.warn} warn, ${counts.manual} manual, ${counts.inconclusive} inconclusive.`,
    ...run.notes.map((note) => `\n> ${markdownText(note)}`),
    ...(run.tells.length ? ['', `${markdownText(TELLS_HEADING)}:`, '', ...run.tells.map((tell) => `- ${markdownText(tell)}`)] : []),
  ];
  const section = (heading: string, checks: CheckReport[], body: (check: CheckReport) => string[]) =>
    checks.length ? ['', `### ${heading} (${checks.length})`, '', ...checks.flatMap((check) => [`- **\`${check.id}\`** ${markdownText(check.title)}`, ...body(check).map((line) => `  - ${line}`)])] : [];
  const evidence = (check: CheckReport) => {
    const file = check.evidence.find((item) => item.path?.endsWith(`${check.id}.json`))?.path;
    return file ? [`Evidence: \`${relative(run.out_dir, file)}\` in the report folder`] : [];
  };
  const by = (status: CheckReport['status']) => report.checks.filter((check) => check.status === status);
  lines.push(
    ...section('Failures', by('fail'), (check) => [`Seen: ${markdownText(check.reason)}`, ...fixOf(check.id), ...evidence(check)]),
    ...section('Inconclusive: not judged', by('inconclusive'), (check) => [`Why: ${markdownText(check.reason)}`, ...(check.configure ? [`Configure: ${markdownText(check.configure)}`] : [])]),
    ...section('Passed, with something to read or review', [...by('warn'), ...by('manual')], (check) => [markdownText(check.reason)]),
  );
  const passes = by('pass');
  if (passes.length) lines.push('', `<details><summary>Passes (${passes.length})</summary>`, '', ...passes.map((check) => `- \`${check.id}\` ${markdownText(check.title)}`), '', '</details>');
  lines.push('', `Report folder: \`${run.out_dir.replaceAll('`', '')}\`; \`report.html\` (\`--format html\`) has the evidence and the screenshots.`, '');
  return lines.join('\n');
}
