/**
 * The README's CI block in a checkout (issue 49 item 4): run as written with `bash -e`, a step made
 * to fail (the harness, here exiting 1 at once), it exits with that step's status and leaves nothing
 * running: its `trap` stopped the agency and the emulator, whose ports refuse and whose data folder
 * holds no instance. The checkout is a folder of links to this one (its package.json, dist/ and
 * node_modules/), so the block's files land there; `npx emulator` runs the built CLI.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, test } from 'vitest';
import { SHELL, codeBlocks } from '../support/markdown.js';
import { ROOT, freePort, removeTempFolders, run, stopEmulatorOf, tempFolder } from './support.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const CI_BLOCK = codeBlocks('README.md', README.slice(README.indexOf('## For agencies and CI'), README.indexOf('## Security')), SHELL).find((block) => block.skipped?.includes('test/packaging/ci-block.test.ts'))!;

let data: string;
afterAll(() => {
  if (data) stopEmulatorOf(data);
  removeTempFolders();
});

/** `npx emulator …` runs the built CLI; `npx harness …` is the step that fails. */
function npxShim(folder: string): string {
  const bin = join(folder, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'npx'), `#!/bin/sh
case "$1" in
  emulator) shift; exec "${process.execPath}" "${join(ROOT, 'dist/emulator/cli.js')}" "$@" ;;
  harness) echo "harness: made to fail" >&2; exit 1 ;;
  *) echo "ci-block test: npx $1 is not available here" >&2; exit 127 ;;
esac
`);
  chmodSync(join(bin, 'npx'), 0o755);
  return bin;
}

/** Whether the port refuses within a bound: a process the trap signalled takes a moment to end. */
async function refusedWithin(url: string, ms: number): Promise<boolean> {
  for (const deadline = performance.now() + ms; performance.now() < deadline; await sleep(100)) {
    if (await fetch(url, { signal: AbortSignal.timeout(2000) }).then(() => false, () => true)) return true;
  }
  return false;
}

test('the CI block, a step failing, exits with its status and leaves neither the agency nor the emulator running', async () => {
  const scratch = tempFolder('ci-block-');
  const checkout = join(scratch, 'checkout');
  mkdirSync(checkout);
  for (const entry of ['package.json', 'dist', 'node_modules']) symlinkSync(join(ROOT, entry), join(checkout, entry));
  data = join(scratch, 'data');
  const [agencyPort, emulatorPort] = [await freePort(), await freePort()];
  const result = await run('bash', ['-e', '-c', CI_BLOCK.text], {
    cwd: checkout,
    env: { ...process.env, PATH: `${npxShim(scratch)}:${process.env.PATH}`, PORT: String(agencyPort), EMULATOR_PORT: String(emulatorPort), EMULATOR_DATA: data, NO_COLOR: '1' },
  });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('harness: made to fail');
  // The agency ran (it answered the block's curl and logged it), and the emulator served its env: both were started, both stopped.
  expect(readFileSync(join(checkout, 'agency.log'), 'utf8')).toMatch(/"msg":"request"/);
  expect(await refusedWithin(`http://127.0.0.1:${agencyPort}/callback`, 10_000)).toBe(true);
  expect(await refusedWithin(`http://127.0.0.1:${emulatorPort}/_emulator/health`, 10_000)).toBe(true);
  expect(existsSync(join(data, 'instance.json'))).toBe(false);
}, 120_000);
