/** The `emulator` command refusing what it cannot use, from outside: usage errors (exit 2), fixtures it cannot read, and the help it gives. */
import { existsSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { runCli as emulator, runCliWith as emulatorWith } from '../hardening/processes.js';
import { DEFAULT_FIXTURE } from '../world.js';
import { cleanUp, expectOneLineFailure, instance } from './support.js';

afterEach(cleanUp);

test('a usage error exits 2 in `emulator` as in `harness`, with one line (and a suggestion where one fits) (issue 40 item 6)', async () => {
  const it = await instance();
  const harness = await new Promise<number | null>((resolve) => spawn(process.execPath, [fileURLToPath(new URL('../../dist/harness/cli.js', import.meta.url)), 'verify', '--bogus'], { stdio: 'ignore' }).once('close', resolve));
  const runs = {
    unknownOption: await emulator('start', '--prot', '5'),
    unknownCommand: await emulator('strat'),
    badValue: await emulator('start', '--port', 'many'),
    // The required --scans is checked after the unknown option, so the typo gets its suggestion.
    seedTypo: await it.run('seed', '--scan', '7'),
    missingRequired: await it.run('seed'),
    nestedMissing: await it.run('callback', 'set'),
    // A shortening of one command suggests that one, not the nearest spelling (`start`).
    shortened: await emulator('stat'),
    bareCallback: await it.run('callback', 'set', 'http://localhost:3000/callback'),
    backwards: await it.run('clock', 'advance', '-1h'),
  };
  expect(harness).toBe(2);
  expect(Object.fromEntries(Object.entries(runs).map(([name, run]) => [name, run.code]))).toEqual(Object.fromEntries(Object.keys(runs).map((name) => [name, harness])));
  expect(runs.seedTypo.stderr).toMatch(/^\[emulator\] unknown option '--scan'\n\(Did you mean --scans\?\)/);
  expect(runs.missingRequired.stderr.trim()).toBe("[emulator] required option '--scans <n>' not specified");
  expect(runs.nestedMissing.stderr.trim()).toBe("[emulator] required option '--production <url>' not specified");
  expect(runs.shortened.stderr.trim()).toBe("[emulator] unknown command 'stat'\n(Did you mean status?)");
  expect(runs.bareCallback.stderr.trim()).toBe('[emulator] callback set takes each URL after its flag, so a preview is never registered as production: npx emulator callback set --production http://localhost:3000/callback [--preview URL]');
  expect(runs.backwards.stderr).toMatch(/^\[emulator\] the clock only moves forward: -1h would take it back; `npx emulator clock reset` puts it back on system time/);
  expect(existsSync(it.data)).toBe(false);
});

test('start with a fixture that is not JSON fails with one line naming the file', async () => {
  const it = await instance();
  writeFileSync(it.fixturePath, '{ "seed": ');
  expectOneLineFailure(await it.start('--fixture', it.fixturePath), `invalid fixture ${it.fixturePath}: not JSON`);
});

test('start with an invalid fixture fails with one line naming the file and the JSON path', async () => {
  const fixture = structuredClone(DEFAULT_FIXTURE);
  fixture.promotion.prizes[1]!.odds = 2;
  const it = await instance(fixture);
  expectOneLineFailure(await it.start(), `invalid fixture ${it.fixturePath}: promotion.prizes.1.odds`);
});

test('--public-url refuses what is not an http(s) origin, with one line, as a usage error', async () => {
  const it = await instance();
  const run = await it.start('--public-url', 'https://promo.example.test/emulator');
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('A public URL is an origin only');
  const bad = await emulatorWith({ EMULATOR_PUBLIC_URL: 'ftp://promo.example.test' }, 'start', '--port', String(it.port), '--data', it.data);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('A public URL uses http or https');
});

test('clock with a value it cannot read prints the accepted forms and exits 2, before looking for an emulator', async () => {
  const it = await instance();
  for (const args of [['freeze', 'yesterday'], ['advance', 'soon'], ['unfreeze', 'now']]) {
    const run = await it.run('clock', ...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^\[emulator\] .+\. Usage:\n/);
    expect(run.stderr).toContain('clock freeze 2026-12-24T18:00:00Z');
    expect(run.stderr).toContain('clock advance 31m');
    expect(run.stderr).not.toContain('{"freeze"');
  }
  expect((await it.run('clock', 'freeze', 'yesterday')).stderr).toContain('yesterday is not an ISO time');
});

test('clock --help says what reset and clock reset do to the clock', async () => {
  const help = await emulator('clock', '--help');
  expect(help.code).toBe(0);
  expect(help.stdout).toContain('`npx emulator reset` seeds the world again but leaves the clock where it stands');
  expect(help.stdout).toMatch(/clock reset +back to system time/);
});
