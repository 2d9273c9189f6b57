/**
 * What the recorded facts (recorded.ts) come from besides the scenarios: the harness's run,
 * browser and page-reading code and the agencies it ran against. A recording is judged by the
 * checks as the code stands, but its facts were gathered by this code as it stood: a change here
 * (a form field the filler skips, a probe dropped) would go unseen by every judged recording. So
 * `npm run record:facts` keeps a digest of each of these files beside the recordings, and a test
 * fails, naming the files, when they differ from it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILE = new URL('./recorded/sources.json', import.meta.url);

/** The folders whose code gathers the facts; fixtures/agency-python serves no recorded run. */
export const SOURCE_FOLDERS = ['harness/run', 'harness/browser', 'harness/pages', 'fixtures'];
const UNUSED = new Set(['fixtures/agency-python']);
/** Tests and documentation in those folders gather nothing. */
const gathers = (path: string) => !/\.test\.ts$|\.md$/.test(path);

function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .filter((path) => gathers(path) && ![...UNUSED].some((unused) => path.startsWith(`${unused}/`)));
}

/** Each source file with a digest of its text (line endings as LF, so a Windows checkout digests alike). */
export function sourceDigests(): Record<string, string> {
  const paths = SOURCE_FOLDERS.flatMap(filesUnder).sort();
  return Object.fromEntries(paths.map((path) => [path, createHash('sha256').update(readFileSync(join(ROOT, path), 'utf8').replaceAll('\r\n', '\n')).digest('hex').slice(0, 16)]));
}

export const recordedDigests = (): Record<string, string> => JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, string>;

export function writeDigests(digests: Record<string, string>): void {
  writeFileSync(FILE, `${JSON.stringify(digests, null, 1)}\n`);
}

/** The files added, removed or changed since the recording, sorted. */
export function changedSince(recorded: Record<string, string>, now: Record<string, string>): string[] {
  return [...new Set([...Object.keys(recorded), ...Object.keys(now)])].filter((path) => recorded[path] !== now[path]).sort();
}
