/**
 * Round three, item 8: `--fixture` names a file the emulator reads, and nothing else. A symlink to
 * /etc/shadow printed its first bytes in the "not JSON" error (and, with `--watch`, into the log);
 * `--fixture /dev/zero` hung. A fixture is a regular file of at most 16 MB, and an error names the
 * file, the JSON path or the line and column, never the text.
 */
import { execFileSync } from 'node:child_process';
import { symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { FixtureError, loadFixture } from '../../emulator/fixture.js';
import { runCli, scratchFolder } from './processes.js';

const SECRET = 'root:$6$saltsalt$ThisIsNotARealHashButItMustNeverBePrinted:20200:0:99999:7:::';

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup) step();
  cleanup = [];
});

function scratch() {
  const folder = scratchFolder();
  cleanup.push(folder.remove);
  return folder;
}

test('a fixture that is a symlink to a secret file is refused without quoting it, from the CLI too', async () => {
  const { dir, data } = scratch();
  const secret = join(dir, 'shadow');
  writeFileSync(secret, `${SECRET}\n`);
  const link = join(dir, 'fixture-link.json');
  symlinkSync(secret, link);
  expect(() => loadFixture(link)).toThrow(FixtureError);
  expect(() => loadFixture(link)).toThrow(/not JSON/);
  const run = await runCli('start', '--data', data, '--fixture', link, '--port', '0');
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('not JSON');
  for (const piece of ['root:', 'saltsalt', 'NotARealHash', '20200']) expect(run.stdout + run.stderr).not.toContain(piece);
});

test('a JSON error says where, not what: line and column only', () => {
  const { dir } = scratch();
  const file = join(dir, 'broken.json');
  writeFileSync(file, `{\n  "seed": "s",\n  "token": "sk_live_do_not_print_me",,\n}`);
  let message = '';
  try {
    loadFixture(file);
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).toMatch(/not JSON \(at line 3 column \d+\)$/);
  expect(message).not.toContain('sk_live');
});

test('a device, a FIFO, a folder or a file over 16 MB is refused at once, without reading it', async () => {
  const { dir, data } = scratch();
  const fifo = join(dir, 'fifo.json');
  execFileSync('mkfifo', [fifo]);
  const huge = join(dir, 'huge.json');
  writeFileSync(huge, '');
  truncateSync(huge, 17 * 1024 * 1024);
  for (const [path, reason] of [['/dev/zero', 'not a regular file'], [fifo, 'not a regular file'], [dir, 'not a regular file (a folder)'], [huge, 'over the 16 MB']] as const) {
    expect(() => loadFixture(path), path).toThrow(reason);
  }
  const run = await runCli('start', '--data', data, '--fixture', '/dev/zero', '--port', '0');
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('/dev/zero: not a regular file');
});
