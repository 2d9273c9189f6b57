/**
 * The report folder never outlives its run: a run writes into a folder beside it and, once every
 * report is written, puts that folder in its place (publish); a run that ends without a verdict
 * (could not run, interrupted) leaves no report at all (discard), so an earlier run's "Approve" is
 * never read as this one's.
 *
 * Only a folder the harness could have written is replaced or removed: one that holds anything
 * else (`--out .` by mistake) is refused before the run starts.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { HarnessError } from '../errors.js';

/** What a run writes into its report folder (files.ts, html.ts, the run's screenshots, traces and evidence). */
export const REPORT_ENTRIES: ReadonlySet<string> = new Set(['report.json', 'junit.xml', 'report.html', 'rules.md', 'screenshots', 'traces', 'evidence']);

export interface ReportFolder {
  /** Where the run writes: a new folder beside the report folder. */
  readonly staging: string;
  /** The report folder itself, as the reports name it. */
  readonly final: string;
  /** The staged folder becomes the report folder; the earlier one goes. */
  publish(): void;
  /** Neither the staged folder nor the earlier report remain. */
  discard(): void;
}

/** Refuses a folder holding anything a run does not write; otherwise stages the run's folder beside it. */
export function claimReportFolder(final: string): ReportFolder {
  if (existsSync(final) && !statSync(final).isDirectory()) throw new HarnessError(`--out ${final} is a file, not a folder: give the report a folder of its own`);
  const foreign = existsSync(final) ? readdirSync(final).filter((entry) => !REPORT_ENTRIES.has(entry)) : [];
  if (foreign.length) {
    throw new HarnessError(`--out ${final} holds ${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}, which no run wrote: a run replaces its report folder whole, so give it a folder of its own`);
  }
  mkdirSync(dirname(final), { recursive: true });
  const staging = mkdtempSync(join(dirname(final), `.${basename(final)}-run-`));
  return {
    staging,
    final,
    publish() {
      const old = `${staging}-old`;
      if (existsSync(final)) renameSync(final, old);
      renameSync(staging, final);
      rmSync(old, { recursive: true, force: true });
    },
    discard() {
      rmSync(staging, { recursive: true, force: true });
      rmSync(final, { recursive: true, force: true });
    },
  };
}
