/**
 * The single executable from outside: built by scripts/build-sea.mjs into a temp folder far from
 * node_modules, then run from an empty folder with no `node` on the PATH.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { EnvValues } from '../../emulator/use-cases/control/env-values.js';
import { ROOT, freePort, removeTempFolders, run, tempFolder } from './support.js';

const unsupported = ['linux', 'darwin'].includes(process.platform) && isBuiltin('node:sea')
  ? undefined
  : `skipped: a single executable with assets needs Node 20.12 or later on Linux or macOS, not Node ${process.version} on ${process.platform}`;

let program: string;
let home: string;

beforeAll(() => {
  if (unsupported) return;
  home = tempFolder('emulator-sea-');
  program = join(home, 'bin', 'emulator');
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-sea.mjs'), '--out', program], { stdio: 'pipe' });
}, 90_000);

afterAll(async () => {
  if (unsupported) return;
  const instance = join(home, 'work', 'data', 'instance.json');
  if (existsSync(instance)) await emulator('stop', '--data', 'data');
  removeTempFolders();
});

/** No node on the PATH, nothing inherited but the PATH; temp files under the test's own folder. */
function emulator(...args: string[]) {
  const PATH = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir && !existsSync(join(dir, 'node'))).join(delimiter);
  return run(program, args, { cwd: join(home, 'work'), env: { PATH, HOME: home, TMPDIR: join(home, 'tmp') } });
}

test.skipIf(unsupported)(unsupported ?? 'the single executable starts from an empty folder without Node, answers the API and stops', async () => {
  mkdirSync(join(home, 'work'));
  mkdirSync(join(home, 'tmp'));
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  expect(await emulator('--version')).toMatchObject({ code: 0, stdout: `${version}\n` });

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = await emulator('start', '--port', String(port), '--data', 'data');
  expect(started.stderr).toBe('');
  expect(started).toMatchObject({ code: 0, stdout: expect.stringContaining(`[emulator] running at ${baseUrl}`) });

  const env = JSON.parse((await emulator('env', '--json', '--data', 'data')).stdout) as EnvValues;
  const campaign = await fetch(`${baseUrl}/api/experience/v1/campaign`, { headers: { authorization: `Bearer ${env.sandbox_key}` } });
  expect(campaign.status).toBe(200);
  const reference = await fetch(`${baseUrl}/_emulator/api-docs/assets/swagger-ui-bundle.js`);
  expect({ status: reference.status, size: (await reference.text()).length > 500_000 }).toEqual({ status: 200, size: true });

  const extracted = join(home, 'tmp', readdirSync(join(home, 'tmp')).find((name) => name.startsWith('promo-emulator-'))!);
  expect(statSync(extracted).mode & 0o777).toBe(0o700);
  expect(readdirSync(extracted)).toEqual(expect.arrayContaining([expect.stringMatching(/-better_sqlite3\.node$/), expect.stringMatching(/-default\.json$/)]));

  expect(await emulator('stop', '--data', 'data')).toMatchObject({ code: 0, stdout: expect.stringContaining(`stopped the emulator at ${baseUrl}`) });
  await expect(fetch(`${baseUrl}/_emulator/health`)).rejects.toThrow();
}, 60_000);
