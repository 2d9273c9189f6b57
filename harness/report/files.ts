/**
 * The report files JSON and JUnit XML (report.html is html.ts). No dependency: JUnit is a few
 * elements. Everything from the run is escaped.
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CheckReport } from '../checks/evaluate.js';
import { GROUPS } from '../checks/types.js';
import { LEGEND, exitCodeOf, verdictLine } from './legend.js';
import type { Reporter, ReporterOptions } from './types.js';

export const REPORT_FILES = { json: 'report.json', junit: 'junit.xml', html: 'report.html' } as const;

/** `{checks: [{id, title, status, reason, configure?, evidence}]}` plus the run's metadata, summary, exit code, the evidence rules and scenarios. */
export function jsonReporter(options: ReporterOptions): Reporter {
  return {
    onEnd(report) {
      const checks = report.checks.map(({ id, title, group, spec, status, reason, configure, allowed_by, evidence }) => ({
        id, title, group, spec, status, reason, ...(configure ? { configure } : {}), ...(allowed_by ? { allowed_by } : {}), evidence: evidence.map((item) => (item.path ? { ...item, path: relative(report.run.out_dir, item.path) } : item)),
      }));
      const verdict = { exit_code: exitCodeOf(report.summary), meaning: verdictLine(report.summary), rules: LEGEND };
      writeFileSync(join(options.outDir, REPORT_FILES.json), `${JSON.stringify({ run: report.run, summary: report.summary, verdict, checks, scenarios: report.scenarios }, null, 2)}\n`);
    },
  };
}

/** What XML 1.0 cannot hold, even as a character reference; the reporters receive such characters escaped (showControls), and this holds the file well-formed whatever it is given. */
const NOT_XML = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

const xml = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char]!).replace(NOT_XML, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** One test suite per checklist group, one test case per check; warn passes with a note; manual is skipped; inconclusive is an error (not judged). */
export function junitReporter(options: ReporterOptions): Reporter {
  return {
    onEnd(report) {
      const time = (report.run.duration_ms / 1000).toFixed(3);
      const suites = Object.entries(GROUPS).flatMap(([group, heading]) => {
        const checks = report.checks.filter((check) => check.group === group);
        if (checks.length === 0) return [];
        const count = (status: string) => checks.filter((check) => check.status === status).length;
        const cases = checks.map((check) => `    <testcase classname="harness.${xml(group)}" name="${xml(`${check.id}: ${check.title}`)}" time="0">${check.allowed_by ? `\n      ${allowedProperties(check.allowed_by)}` : ''}${junitBody(check)}</testcase>`);
        return [`  <testsuite name="${xml(heading)}" tests="${checks.length}" failures="${count('fail')}" errors="${count('inconclusive')}" skipped="${count('manual')}" time="0">\n${report.run.allowances.length ? `    ${allowedProperties(report.run.allowances.map((allowance) => allowance.setting))}\n` : ''}${cases.join('\n')}\n  </testsuite>`];
      });
      const { fail, inconclusive, manual } = report.summary;
      writeFileSync(
        join(options.outDir, REPORT_FILES.junit),
        `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="harness verify" tests="${report.checks.length}" failures="${fail}" errors="${inconclusive}" skipped="${manual}" time="${time}">\n${suites.join('\n')}\n</testsuites>\n`,
      );
    },
  };
}

/** The config's allowances as JUnit properties: the run's on each suite, a check's on its test case. */
function allowedProperties(settings: readonly string[] | undefined): string {
  return settings?.length ? `<properties>${settings.map((setting) => `<property name="allowed_by_config" value="${xml(setting)}"/>`).join('')}</properties>` : '';
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
