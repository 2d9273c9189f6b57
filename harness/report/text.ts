/**
 * The terminal: progress on stderr while scenarios run, then the checklist on stdout, grouped,
 * with a one-line reason and an evidence pointer under every check that did not pass.
 */
import { GROUPS, type Status } from '../checks/types.js';
import { shownPath } from '../paths.js';
import { folderContents } from './folder.js';
import { LEGEND, TELLS_HEADING, exitCodeOf, promotionLine, traceCommand, verdictLine } from './legend.js';
import type { Reporter, ReporterOptions } from './types.js';

const LABEL: Record<Status, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', manual: 'MANUAL', inconclusive: 'INCONCLUSIVE' };
const COLOUR: Record<Status, number> = { pass: 32, fail: 31, warn: 33, manual: 36, inconclusive: 35 };

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** How a line's rows after its first begin: deeper than any row of the checklist shows its status word, and marked as the rest of a line. */
const HANGING = `${' '.repeat(13)}… `;
/** The terminal's own colour escapes: no width, never cut. */
const SGR = /^\u001b\[[\d;]*m/;

/** Columns a character takes: East Asian wide and emoji count two (a guess on the safe side: more rows, never fewer). */
const columnsOf = (char: string) => (char.codePointAt(0)! >= 0x1100 ? 2 : 1);

/**
 * A line cut into rows of at most `width` columns, every row after the first begun by HANGING.
 * The terminal then never wraps a line itself, so text the agency wrote (a title padded to the
 * terminal's width, then `PASS journey.state.won`) never begins a row where a status word sits.
 * Without a width (not a terminal: a file, a pipe) the line is left whole.
 */
export function rows(line: string, width: number | undefined): string {
  if (!width || width <= HANGING.length + 10) return line;
  const cut: string[] = [];
  let row = '';
  let used = 0;
  for (let rest = line; rest; ) {
    const colour = SGR.exec(rest)?.[0];
    const char = colour ?? String.fromCodePoint(rest.codePointAt(0)!);
    rest = rest.slice(char.length);
    const wide = colour ? 0 : columnsOf(char);
    if (used + wide > width) {
      cut.push(row);
      [row, used] = [HANGING, HANGING.length];
    }
    row += char;
    used += wide;
  }
  return [...cut, row].join('\n');
}

export function textReporter(options: ReporterOptions): Reporter {
  const paint = (code: number, text: string) => (options.color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const widthOf = (stream: NodeJS.WritableStream) => (stream as { isTTY?: boolean; columns?: number }).isTTY ? (stream as { columns?: number }).columns : undefined;
  const err = (line: string) => options.stderr.write(`${rows(line, widthOf(options.stderr))}\n`);
  const out = (line: string) => options.stdout.write(`${rows(line, widthOf(options.stdout))}\n`);
  let total = 0;
  let done = 0;
  let notesShown = 0;
  const progressOnce = once();
  return {
    onBegin(meta, scenarios, checks) {
      total = scenarios.length;
      err(`[harness] verify ${meta.callback} against ${promotionLine(meta)} at the emulator ${meta.emulator}${meta.only ? ` (only ${meta.only.join(', ')})` : ''}`);
      for (const note of meta.notes) err(`[harness] note: ${note}`);
      notesShown = meta.notes.length;
      err(`[harness] plan: ${scenarios.length} scenario(s) in parallel browser contexts, then ${checks} check(s)`);
      for (const scenario of scenarios) err(`[harness]   ${scenario.id} (${scenario.phase}): ${scenario.title}`);
    },
    onScenarioEnd(outcome) {
      done += 1;
      const mark = outcome.status === 'passed' ? paint(32, 'ok') : outcome.status === 'skipped' ? paint(90, 'skipped') : paint(33, 'stopped');
      err(`[harness] [${done}/${total}] ${outcome.id} ${mark} ${seconds(outcome.durationMs)}${outcome.error ? `: ${progressOnce(outcome.error, outcome.error, outcome.id)}` : ''}`);
    },
    onEnd(report) {
      out(`Verified ${promotionLine(report.run)}: ${report.run.promotion.name}`);
      out('');
      for (const line of LEGEND) out(paint(90, line));
      out('');
      if (report.run.allowances.length) {
        out('Allowed by the config (each shown beside the checks it can change):');
        for (const allowance of report.run.allowances) out(`  ${allowance.setting}`);
        out('');
      }
      if (report.run.tells.length) {
        out(`${TELLS_HEADING}:`);
        for (const tell of report.run.tells) out(`  ${tell}`);
        out('');
      }
      const reasonOnce = once();
      const repeated = [...new Set(report.scenarios.flatMap((scenario) => (scenario.error ? [scenario.error] : [])))];
      for (const [group, heading] of Object.entries(GROUPS)) {
        const checks = report.checks.filter((check) => check.group === group);
        if (checks.length === 0) continue;
        out(paint(1, heading));
        const width = Math.max(...report.checks.map((check) => check.id.length));
        for (const check of checks) {
          out(`  ${paint(COLOUR[check.status], LABEL[check.status].padEnd(12))} ${check.id.padEnd(width)}  ${check.title}`);
          for (const setting of check.allowed_by ?? []) out(`               allowed by the config: ${setting}`);
          if (check.status === 'pass') continue;
          out(`               ${repeated.reduce((reason, error) => reasonOnce(reason, error, check.id), check.reason)}`);
          if (check.configure) out(`               configure: ${check.configure}`);
          const pointer = check.evidence.find((item) => item.path)?.path;
          if (pointer) out(`               evidence: ${shownPath(pointer)}`);
          for (const trace of check.evidence.filter((item) => item.path?.endsWith('.zip'))) out(`               trace: ${traceCommand(shownPath(trace.path!))}`);
        }
      }
      const { summary } = report;
      out('');
      out(`${report.checks.length} checks: ${summary.pass} pass, ${paint(summary.fail ? 31 : 0, `${summary.fail} fail`)}, ${summary.warn} warn, ${summary.manual} manual, ${paint(summary.inconclusive ? 35 : 0, `${summary.inconclusive} inconclusive`)} · ${seconds(report.run.duration_ms)}`);
      out(paint(exitCodeOf(summary) === 0 ? 32 : exitCodeOf(summary) === 1 ? 31 : 35, verdictLine(summary)));
      const stopped = report.scenarios.filter((scenario) => scenario.status === 'errored');
      if (stopped.length) out(`${stopped.length} scenario(s) stopped early: ${stopped.map((scenario) => scenario.id).join(', ')}`);
      for (const note of report.run.notes.slice(notesShown)) out(`Note: ${note}`);
      out(`Report folder: ${shownPath(report.run.out_dir)}: ${folderContents(options.outDir)}`);
    },
  };
}

/**
 * Prints a scenario's error once: a later line holding the same text says where it was shown
 * instead (a promotion that cannot be approved stops every journey with the same long reason).
 */
function once(): (line: string, error: string, where: string) => string {
  const shown = new Map<string, string>();
  return (line, error, where) => {
    if (!line.includes(error)) return line;
    const first = shown.get(error);
    if (first === undefined) {
      shown.set(error, where);
      return line;
    }
    return line.replace(error, `the same as ${first}, above`);
  };
}
