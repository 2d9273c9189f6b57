/**
 * Round three, item 6: seeds could not be cancelled. Killing the CLI left the server seeding on; a
 * server that died mid-seed crashed the CLI with `TypeError: terminated` and a stack trace; a reset
 * during a seed was reported as "the emulator stopped answering". Now Ctrl-C stops the seed between
 * chunks and the CLI says how many scans were added; a reset and a vanished emulator are each one
 * line. Each seed here asks for far more than it is let run: it is stopped once scans appear.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { type EmulatorProcess, openData, scratchFolder, spawnCli, startEmulator } from './processes.js';

const SCANS = 2_000_000;

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function seeding(): Promise<{ emulator: EmulatorProcess; data: string; scans: () => number; base: number; cli: ReturnType<typeof spawnCli> }> {
  const scratch = scratchFolder((fixture) => ({ ...fixture, history: { scans: 0 } }));
  cleanup.push(scratch.remove);
  const emulator = await startEmulator({ data: scratch.data, fixture: scratch.fixture });
  cleanup.push(() => emulator.stop('SIGKILL'));
  const db = openData(scratch.data, { readonly: true });
  cleanup.push(() => db.close());
  const scans = () => (db.prepare('SELECT count(*) AS n FROM scans').get() as { n: number }).n;
  const base = scans();
  const cli = spawnCli({}, 'seed', '--scans', String(SCANS), '--data', scratch.data);
  cleanup.push(() => cli.child.kill('SIGKILL'));
  await vi.waitFor(() => expect(scans()).toBeGreaterThan(base), { timeout: 30_000, interval: 20 });
  return { emulator, data: scratch.data, scans, base, cli };
}

/** What the CLI printed on stderr other than its progress lines. */
function complaints(stderr: string): string[] {
  return stderr.trim().split('\n').filter((line) => !line.startsWith('[emulator] seeding: '));
}

const count = (text: string) => Number(text.replaceAll(',', ''));

test('Ctrl-C cancels the seed in the emulator too, and the CLI says how many scans were added', { timeout: 60_000 }, async () => {
  const { data, scans, base, cli } = await seeding();
  cli.child.kill('SIGINT');
  const run = await cli.ran;
  expect(run.code, run.stderr).toBe(1);
  const lines = complaints(run.stderr);
  expect(lines).toHaveLength(1);
  const said = /^\[emulator\] seeding cancelled; at least ([\d,]+) of 2,000,000 scans were added and stay$/.exec(lines[0]!);
  expect(said, lines[0]).not.toBeNull();

  // The emulator logs the end of its seed loop with what it committed: from then on nothing grows.
  const logged = await vi.waitFor(() => {
    const line = readFileSync(join(data, 'emulator.log'), 'utf8').split('\n').find((text) => text.includes('"msg":"seeding cancelled"'));
    expect(line).toBeDefined();
    return JSON.parse(line!) as { added: number };
  }, { timeout: 30_000, interval: 50 });
  expect(logged.added).toBeLessThan(SCANS);
  expect(logged.added).toBeGreaterThanOrEqual(count(said![1]!));
  expect(scans()).toBe(base + logged.added);
});

test('a reset during a seed stops it, said in one line, and leaves the reset world', { timeout: 60_000 }, async () => {
  const { emulator, scans, base, cli } = await seeding();
  expect((await fetch(`${emulator.baseUrl}/_emulator/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(200);
  const run = await cli.ran;
  expect(run.code, run.stderr).toBe(1);
  expect(complaints(run.stderr)).toEqual([expect.stringMatching(/^\[emulator\] seeding stopped: the emulator was reset meanwhile, which removed the [\d,]+ scans seeded before it$/)]);
  expect(scans()).toBe(base);
});

test('an emulator that dies mid-seed is one line from the CLI, no TypeError stack', { timeout: 60_000 }, async () => {
  const { emulator, cli, scans } = await seeding();
  // The first chunk is committed before its progress line (and the answer's headers) is written:
  // once a second one is, the CLI holds an answer that ends mid-seed, not a refused request.
  const first = scans();
  await vi.waitFor(() => expect(scans()).toBeGreaterThan(first), { timeout: 30_000, interval: 20 });
  await emulator.stop('SIGKILL');
  const run = await cli.ran;
  expect(run.code, run.stderr).toBe(1);
  expect(complaints(run.stderr)).toEqual([expect.stringMatching(/^\[emulator\] the emulator stopped answering during the seed \(see `.*logs`\); at least [\d,]+ of 2,000,000 scans were added and stay$/)]);
  expect(run.stderr).not.toMatch(/TypeError|terminated|\n\s+at /);
});
