/** The single-page agency's defect registry, its completeness against the tests and the README, and its command from outside. */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { createLogger } from '../../emulator/logger.js';
import { startServer } from '../../emulator/server.js';
import { SPA_DEFECTS, parseSpaDefects } from '../../fixtures/agency-spa/defects.js';
import { spawnAgency } from '../support/agency-cli.js';
import { DEFAULT_FIXTURE } from '../world.js';
import { SpaClient } from './spa-client.js';

const COMMAND = {
  cli: fileURLToPath(new URL('../../dist/fixtures/agency-spa/cli.js', import.meta.url)),
  prefix: 'agency-spa',
  cleared: ['PROMO_SANDBOX_KEY', 'PROMO_PRODUCTION_KEY', 'AGENCY_SPA_DEFECTS'],
};
const README = fileURLToPath(new URL('../../fixtures/agency-spa/README.md', import.meta.url));

/** Spawns the built command without PROMO_* keys or AGENCY_SPA_DEFECTS unless given. */
const agencySpa = (args: string[], env?: NodeJS.ProcessEnv) => spawnAgency(COMMAND, args, env);

describe('the defect registry', () => {
  test('names each defect once, cites a spec section and a dotted check id, and says where it acts', () => {
    expect(SPA_DEFECTS.length).toBeGreaterThanOrEqual(12);
    expect(new Set(SPA_DEFECTS.map((defect) => defect.name)).size).toBe(SPA_DEFECTS.length);
    for (const defect of SPA_DEFECTS) {
      expect(defect.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(defect.rule).toMatch(/§\d/);
      expect(defect.check).toMatch(/^[a-z0-9]+\.[a-z0-9_]+(\.[a-z_]+)?$/);
      expect(['server', 'client']).toContain(defect.side);
    }
  });

  test('has a test for every defect that shows its switch changes the behaviour', () => {
    const folder = fileURLToPath(new URL('.', import.meta.url));
    const tested = readdirSync(folder)
      .filter((file) => file.endsWith('.test.ts'))
      .flatMap((file) => [...readFileSync(`${folder}/${file}`, 'utf8').matchAll(/defect: '([a-z0-9-]+)'|defects: \['([a-z0-9-]+)'\]|consentWith\('([a-z0-9-]+)'/g)].map((match) => match[1] ?? match[2] ?? match[3]));
    expect(SPA_DEFECTS.map((defect) => defect.name).filter((name) => !tested.includes(name))).toEqual([]);
  });

  test('is listed in the README with the same check', () => {
    const rows = new Map([...readFileSync(README, 'utf8').matchAll(/^\| `([a-z0-9-]+)` \| [^|]+ \| `([a-z0-9._]+)` \|/gm)].map((row) => [row[1], row[2]]));
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(SPA_DEFECTS.map((defect) => [defect.name, defect.check])));
  });

  test('refuses unknown names, saying where the known ones are listed', () => {
    expect(() => parseSpaDefects(['transaction-kept', 'no-such-defect'])).toThrow('[agency-spa] unknown defect "no-such-defect". Run `npm run agency:spa -- --list-defects` to see them.');
    expect(parseSpaDefects(['terms-innerhtml']).client()).toEqual(['terms-innerhtml']);
  });
});

describe('the agency:spa command', () => {
  test('--list-defects --json prints name, check, side and rule of each; without --json one line each', async () => {
    const json = await agencySpa(['--list-defects', '--json']).output;
    expect([json.code, JSON.parse(json.stdout)]).toEqual([0, SPA_DEFECTS.map(({ name, check, side, rule }) => ({ name, check, side, rule }))]);
    const text = await agencySpa(['--list-defects']).output;
    expect([text.code, text.stdout.trim().split('\n').length]).toEqual([0, SPA_DEFECTS.length]);
    expect(text.stdout).toMatch(/^state-prefix-compare +state\.tampered_rejected +server +§4\.3 step 6/m);
  });

  test('exits 1 on an unknown defect, from a flag or from AGENCY_SPA_DEFECTS', async () => {
    const flag = await agencySpa(['--defect', 'no-such-defect']).output;
    const env = await agencySpa([], { AGENCY_SPA_DEFECTS: 'transaction-kept, nope' }).output;
    expect([flag.code, flag.stderr.trim(), env.code, env.stderr.trim()]).toEqual([
      1, '[agency-spa] unknown defect "no-such-defect". Run `npm run agency:spa -- --list-defects` to see them.',
      1, '[agency-spa] unknown defect "nope". Run `npm run agency:spa -- --list-defects` to see them.',
    ]);
  });

  test('exits 1 with what to do when it finds no keys', async () => {
    const { code, stderr } = await agencySpa(['--port', '0', '--emulator', 'http://127.0.0.1:9']).output;
    expect(code).toBe(1);
    expect(stderr).toContain('[agency-spa] no keys: set PROMO_SANDBOX_KEY and PROMO_PRODUCTION_KEY');
  });

  test("starts with the running emulator's keys and defects from flags and AGENCY_SPA_DEFECTS, and serves its script", async () => {
    const emulator = await startServer({ fixture: DEFAULT_FIXTURE, data: ':memory:', host: '127.0.0.1', port: 0, logger: createLogger('emulator', { level: 'silent' }) });
    const { child, listening, output } = agencySpa(['--port', '0', '--emulator', emulator.baseUrl, '--defect', 'consent-prechecked'], { AGENCY_SPA_DEFECTS: 'key-in-api' });
    try {
      const url = await listening;
      const browser = new SpaClient();
      const shell = await browser.open(`${url}/rueckruf`);
      const script = await browser.open(`${url}/app.js`);
      // Its modules too, each where app.js imports it from.
      const modules = await Promise.all(['api.js', 'dom.js', 'entry.js', 'result.js'].map(async (name) => [script.text.includes(`from './${name}'`), (await browser.open(`${url}/${name}`)).headers.get('content-type')]));
      const campaign = await browser.api('GET', `${url}/api/kampagne`);
      expect([shell.text.includes('<meta name="spa-defects" content="consent-prechecked">'), script.headers.get('content-type'), typeof campaign.data.schluessel]).toEqual([true, 'text/javascript; charset=utf-8', 'string']);
      expect(modules).toEqual(Array(4).fill([true, 'text/javascript; charset=utf-8']));
      child.kill('SIGTERM');
      const { code, stdout } = await output;
      expect(code).toBe(0);
      expect(stdout).toContain(`callback URL  ${url}/rueckruf`);
      expect(stdout).toContain(`preview URL   ${url}/vorschau`);
      expect(stdout).toContain('defects       consent-prechecked, key-in-api');
    } finally {
      child.kill();
      await emulator.close();
    }
  });
});
