/**
 * How to read a report, and the exit code that sums it up: the header every report format shows
 * (with the promotion verified), and what `harness verify` exits with. A brand reads the exit code first.
 */
import type { Status } from '../checks/types.js';
import type { RunMeta } from './types.js';

/** `interrupted`: Ctrl-C as a shell counts it (128 + SIGINT), and SIGTERM too: one outcome for both (cli.ts). */
export const EXIT = { approve: 0, failed: 1, couldNotRun: 2, inconclusive: 3, interrupted: 130 } as const;

/** 1 when a check failed; else 3 when one is inconclusive; else 0 (warnings and manual reviews allowed). */
export function exitCodeOf(summary: Record<Status, number>): number {
  if (summary.fail > 0) return EXIT.failed;
  if (summary.inconclusive > 0) return EXIT.inconclusive;
  return EXIT.approve;
}

/** One line: what the exit code means for this run. */
export function verdictLine(summary: Record<Status, number>): string {
  switch (exitCodeOf(summary)) {
    case EXIT.failed:
      return `exit 1: ${summary.fail} check(s) failed, each on evidence of a violation`;
    case EXIT.inconclusive:
      return `exit 3: no check failed, but ${summary.inconclusive} could not be judged: not an approval; each says what to configure`;
    default:
      return 'exit 0: every check passed on positive evidence (warnings and manual reviews are for the brand to read)';
  }
}

/** The verdict a brand reads first, by exit code: approve (0), do not approve (1), incomplete (3). */
export function verdictTitle(summary: Record<Status, number>): { title: string; tone: 'approve' | 'reject' | 'incomplete' } {
  switch (exitCodeOf(summary)) {
    case EXIT.failed:
      return { title: 'Do not approve', tone: 'reject' };
    case EXIT.inconclusive:
      return { title: 'Incomplete', tone: 'incomplete' };
    default:
      return { title: 'Approve', tone: 'approve' };
  }
}

/** How to open a Playwright trace the run kept: playwright-core is what the harness ships (plain `playwright` would fetch another version). */
export const traceCommand = (file: string) => `npx playwright-core show-trace ${file}`;

/** The evidence rules and exit codes, as every report states them. */
export const LEGEND = [
  'PASS needs positive evidence: at least one observation of what the check judges, from scenarios that all ran to their end.',
  'FAIL needs evidence of a violation, shown with the check.',
  'INCONCLUSIVE: the run could not judge the check (nothing observed, a scenario stopped or could not start, approval refused); the reason says what to configure.',
  'WARN and MANUAL pass, with something for the brand to read or review by hand.',
  'Exit codes: 0 every check passed (warn and manual allowed); 1 a check failed; 2 the harness could not run; 3 no check failed but one is inconclusive (not an approval); 130 interrupted by Ctrl-C or SIGTERM (no report).',
];

/** The heading every report puts over the run's remaining tells (Report.run.tells). */
export const TELLS_HEADING = 'What the agency\'s pages could still tell of an automated browser on this run';

/** `promotion nordkakao-cafe-codes (id 2, code_unlock)` */
export function promotionLine({ promotion }: RunMeta): string {
  return `promotion ${promotion.slug} (id ${promotion.id}, ${promotion.mechanic})`;
}

/** How the brand approves, once the verdict allows it: the console's page, or the command. */
export function howToApprove({ emulator, promotion }: RunMeta): string {
  return `Approving is the brand's act: the Approve button on the console's page of the promotion, ${emulator}/?promotion=${promotion.slug}, or \`npx emulator approve --promotion ${promotion.slug}\`.`;
}
