/**
 * The report folder never outlives its run: a run writes into a folder beside it and, once every
 * report is written, puts that folder in its place (publish); a run that ends without a verdict
 * (could not run, interrupted) leaves no report at all (discard), so an earlier run's "Approve" is
 * never read as this one's, and says that it removed it.
 *
 * The harness knows its own folders by the marks it writes: a report folder holds `.harness-report`,
 * a staging folder `.harness-run` (the process that writes it). Only an empty folder, or one with the
 * mark holding nothing a run does not write, is replaced or removed; anything else (`--out .`, a folder of the user's files) is refused
 * before the run starts. An `--out` that is a symbolic link stays one: the folder it points to is
 * replaced. Staging folders whose process is gone (a run killed by SIGKILL) are removed by the next
 * run, which says so. Two runs publishing at once each end with a whole report in place, the later one's.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { HarnessError } from '../errors.js';
import { processGone } from '../process-gone.js';
import { harnessVersion } from '../paths.js';

/** The mark of a report folder the harness published. */
export const REPORT_MARK = '.harness-report';
/** The mark of a run's staging folder: which process writes it. */
const RUN_MARK = '.harness-run';

/** What a run writes into its report folder (files.ts, html.ts, companions.ts, markdown.ts, the run's screenshots, traces and evidence). */
const REPORT_ENTRIES: ReadonlySet<string> = new Set([REPORT_MARK, 'report.json', 'junit.xml', 'report.html', 'summary.md', 'rules.html', 'reference', 'screenshots', 'traces', 'evidence']);

export interface ReportFolder {
  /** Where the run writes: a new folder beside the report folder. */
  readonly staging: string;
  /** The report folder itself, as the reports name it. */
  readonly final: string;
  /** What the run found and removed of earlier runs (their staging folders), for the terminal. */
  readonly cleaned: string | undefined;
  /** The staged folder becomes the report folder; the earlier one goes. */
  publish(): void;
  /** Neither the staged folder nor the earlier report remain; true when an earlier report was removed. */
  discard(): boolean;
}

interface Mark {
  published_at?: number;
}

/** Refuses a folder the harness did not write; otherwise stages the run's folder beside it. */
export function claimReportFolder(final: string): ReportFolder {
  const target = followLink(final);
  if (existsSync(target) && !statSync(target).isDirectory()) throw new HarnessError(`--out ${final} is a file, not a folder: give the report a folder of its own`);
  const entries = existsSync(target) ? readdirSync(target) : [];
  const foreign = entries.filter((entry) => !REPORT_ENTRIES.has(entry));
  if (foreign.length) {
    throw new HarnessError(`--out ${final} holds ${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}, which no run wrote: a run replaces its report folder whole, so give it a folder of its own`);
  }
  if (entries.length > 0 && !entries.includes(REPORT_MARK)) {
    throw new HarnessError(`--out ${final} holds ${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''} without the ${REPORT_MARK} mark a run leaves in its report folder: a run replaces its report folder whole, so give it a folder of its own, or remove this one`);
  }
  mkdirSync(dirname(target), { recursive: true });
  const cleaned = removeAbandoned(target);
  const claimed = preciseNow();
  const staging = mkdtempSync(join(dirname(target), `.${basename(target)}-run-`));
  writeFileSync(join(staging, RUN_MARK), `${JSON.stringify({ pid: process.pid, host: hostname() })}\n`);
  return {
    staging,
    final,
    cleaned,
    publish() {
      rmSync(join(staging, RUN_MARK), { force: true });
      writeFileSync(join(staging, REPORT_MARK), `${JSON.stringify({ written_by: 'harness', version: harnessVersion(), published_at: preciseNow() })}\n`);
      const old: string[] = [];
      // Another run may publish between the two renames: move its folder aside too, and try again.
      for (let attempt = 0; ; attempt += 1) {
        const aside = `${staging}-old-${attempt}`;
        if (moved(target, aside)) old.push(aside);
        try {
          renameSync(staging, target);
          break;
        } catch (error) {
          if (!['ENOTEMPTY', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '') || attempt >= 20) throw error;
        }
      }
      for (const folder of old) rmSync(folder, { recursive: true, force: true });
    },
    discard() {
      rmSync(staging, { recursive: true, force: true });
      // A report another run published while this one ran is that run's: it stays.
      const earlier = existsSync(join(target, REPORT_MARK)) && (readMark(target).published_at ?? 0) < claimed;
      if (earlier) rmSync(target, { recursive: true, force: true });
      return earlier;
    },
  };
}

/** The folder a symbolic link points to (it stays a link), else the path itself. */
function followLink(path: string): string {
  try {
    if (!lstatSync(path).isSymbolicLink()) return path;
  } catch {
    return path;
  }
  try {
    return realpathSync(path);
  } catch {
    throw new HarnessError(`--out ${path} is a symbolic link to nothing: point it at a folder, or give another --out`);
  }
}

function moved(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

function readMark(folder: string): Mark {
  try {
    return JSON.parse(readFileSync(join(folder, REPORT_MARK), 'utf8')) as Mark;
  } catch {
    return {};
  }
}

/** Removes the staging folders beside the report folder whose run is gone from this machine; says how many. */
function removeAbandoned(target: string): string | undefined {
  const prefix = `.${basename(target)}-run-`;
  const abandoned = readdirSync(dirname(target))
    .filter((name) => name.startsWith(prefix))
    .map((name) => join(dirname(target), name))
    .filter((folder) => {
      try {
        const owner = JSON.parse(readFileSync(join(folder, RUN_MARK), 'utf8')) as { pid: number; host: string };
        return processGone(owner);
      } catch {
        return false;
      }
    });
  for (const folder of abandoned) rmSync(folder, { recursive: true, force: true });
  return abandoned.length ? `removed ${abandoned.length} staging folder(s) an earlier run left beside ${basename(target)} (${abandoned.map((folder) => basename(folder)).join(', ')})` : undefined;
}

/** What a run wrote into its folder, files first, marks and empty folders left out; and, without a report file, how to get one. */
export function folderContents(folder: string): string {
  const entries = (existsSync(folder) ? readdirSync(folder, { withFileTypes: true }) : []).filter((entry) => !entry.name.startsWith('.') && !(entry.isDirectory() && readdirSync(join(folder, entry.name)).length === 0));
  const names = [...entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name).sort(), ...entries.filter((entry) => entry.isDirectory()).map((entry) => `${entry.name}/`).sort()];
  const reports = entries.some((entry) => !entry.isDirectory());
  return `${names.length ? names.join(', ') : 'nothing'}${reports ? '' : ' (no report file: --format html,json,junit,markdown writes them)'}`;
}

/** Wall-clock milliseconds with their fraction, so that a report published just after a run began is told from one published before. */
const preciseNow = () => performance.timeOrigin + performance.now();
