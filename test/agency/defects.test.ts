/** The defect registry, its completeness against the tests and the README, and the `agency` command from outside. */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { createLogger } from '../../emulator/logger.js';
import { startServer } from '../../emulator/server.js';
import { DEFECTS, parseDefects } from '../../fixtures/agency-reference/defects.js';
import { spawnAgency } from '../support/agency-cli.js';
import { DEFAULT_FIXTURE } from '../world.js';
import { TestBrowser, marker } from './test-browser.js';

const COMMAND = {
  cli: fileURLToPath(new URL('../../dist/fixtures/agency-reference/cli.js', import.meta.url)),
  prefix: 'agency',
  cleared: ['PROMO_SANDBOX_KEY', 'PROMO_PRODUCTION_KEY'],
};

/** Spawns the built command without PROMO_* keys unless given. */
const agency = (args: string[], env?: NodeJS.ProcessEnv) => spawnAgency(COMMAND, args, env);

describe('the defect registry', () => {
  test('names each defect once, cites a spec section and names a dotted check id', () => {
    expect(new Set(DEFECTS.map((defect) => defect.name)).size).toBe(DEFECTS.length);
    for (const defect of DEFECTS) {
      expect(defect.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(defect.rule).toMatch(/§\d/);
      expect(defect.check).toMatch(/^[a-z0-9]+(\.[a-z0-9_]+)+$/);
    }
  });

  test('has a test for every defect that shows its switch changes the behaviour', () => {
    const folder = fileURLToPath(new URL('.', import.meta.url));
    const tested = readdirSync(folder)
      .filter((file) => file.endsWith('.test.ts'))
      .flatMap((file) => [...readFileSync(`${folder}/${file}`, 'utf8').matchAll(/defect: '([a-z0-9-]+)'|defects: \['([a-z0-9-]+)'\]/g)].map((match) => match[1] ?? match[2]));
    expect(DEFECTS.map((defect) => defect.name).filter((name) => !tested.includes(name))).toEqual([]);
  });

  test('is listed in the README with the same rule section and check', () => {
    const readme = readFileSync(fileURLToPath(new URL('../../fixtures/agency-reference/README.md', import.meta.url)), 'utf8');
    const rows = new Map([...readme.matchAll(/^\| `([a-z0-9-]+)` \| [^|]+ \| `([a-z0-9._]+)` \|$/gm)].map((row) => [row[1], row[2]]));
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(DEFECTS.map((defect) => [defect.name, defect.check])));
  });

  test('refuses unknown names, listing where to find the known ones', () => {
    expect(() => parseDefects(['state-not-checked', 'no-such-defect'])).toThrow('[agency] unknown defect "no-such-defect". Run `npm run agency -- --list-defects` to see them.');
    expect(parseDefects(['state-not-checked']).has('state-not-checked')).toBe(true);
  });
});

describe('the agency command', () => {
  test('--list-defects --json prints name, rule and check of each', async () => {
    const { code, stdout } = await agency(['--list-defects', '--json']).output;
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(DEFECTS.map(({ name, rule, check }) => ({ name, rule, check })));
  });

  test('--list-defects prints one line per defect', async () => {
    const { code, stdout } = await agency(['--list-defects']).output;
    expect([code, stdout.trim().split('\n').length]).toEqual([0, DEFECTS.length]);
    expect(stdout).toMatch(/^state-not-checked +state\.tampered_rejected +§4\.3 step 6/m);
  });

  test('--help names the command as the package installs it', async () => {
    const { code, stdout } = await agency(['--help']).output;
    expect([code, stdout.split('\n')[0]]).toEqual([0, 'Usage: promo-agency [options]']);
  });

  test('exits 1 on an unknown defect', async () => {
    const { code, stderr } = await agency(['--defect', 'no-such-defect']).output;
    expect([code, stderr.trim()]).toEqual([1, '[agency] unknown defect "no-such-defect". Run `npm run agency -- --list-defects` to see them.']);
  });

  test('exits 1 with what to do when it finds no keys', async () => {
    const { code, stderr } = await agency(['--port', '0', '--emulator', 'http://127.0.0.1:9']).output;
    expect(code).toBe(1);
    expect(stderr).toContain('[agency] no keys: set PROMO_SANDBOX_KEY and PROMO_PRODUCTION_KEY');
  });

  test("starts with the keys of the running emulator's control plane and serves the preview", async () => {
    const emulator = await startServer({ fixture: DEFAULT_FIXTURE, data: ':memory:', host: '127.0.0.1', port: 0, logger: createLogger('emulator', { level: 'silent' }) });
    const { child, listening, output } = agency(['--port', '0', '--emulator', emulator.baseUrl, '--defect', 'won-without-codes']);
    try {
      const url = await listening;
      const page = await new TestBrowser().open(`${url}/preview/won`);
      expect([marker(page, 'entry-state'), page.text.includes('data-code')]).toEqual(['won', false]);
      child.kill('SIGTERM');
      const { code, stdout } = await output;
      expect(code).toBe(0);
      expect(stdout).toContain(`callback URL  ${url}/callback`);
      expect(stdout).toContain('defects       won-without-codes');
    } finally {
      child.kill();
      await emulator.close();
    }
  });

  test('a defect of one build\'s part builds the agency so: --defect api-readable-by-any-origin runs it on two origins', async () => {
    const emulator = await startServer({ fixture: DEFAULT_FIXTURE, data: ':memory:', host: '127.0.0.1', port: 0, logger: createLogger('emulator', { level: 'silent' }) });
    const { child, listening, output } = agency(['--port', '0', '--emulator', emulator.baseUrl, '--defect', 'api-readable-by-any-origin']);
    try {
      const url = await listening;
      child.kill('SIGTERM');
      const { stdout } = await output;
      const callback = /callback URL {2}(\S+)/.exec(stdout)?.[1];
      expect([new URL(callback!).origin === url, new URL(callback!).pathname]).toEqual([false, '/callback']);
      expect(stdout).toContain(`preview URL   ${url}/preview`);
    } finally {
      child.kill();
      await emulator.close();
    }
  });
});
