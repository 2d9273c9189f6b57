import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { DEFAULT_FIXTURE, testWorld } from '../world.js';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import type { Fixture } from '../../emulator/fixture.js';
import { resetWorld } from '../../emulator/store/reset.js';
import { classifyChange, type FixtureWatcher, watchFixture } from '../../emulator/cli/watch.js';

const edited = (edit: (fixture: Fixture) => void): Fixture => {
  const fixture = structuredClone(DEFAULT_FIXTURE);
  edit(fixture);
  return fixture;
};

test('an unchanged fixture is no change', () => {
  expect(classifyChange(DEFAULT_FIXTURE, structuredClone(DEFAULT_FIXTURE))).toEqual({ kind: 'none' });
});

test('copy, terms, prize fields, dates and countries are content that applies live', () => {
  const after = edited((fixture) => {
    fixture.promotion.copy.headline = 'New headline';
    fixture.promotion.terms.by_country.DE!.version = 'de-2026-04';
    fixture.promotion.prizes[0]!.name = '10 € voucher';
    fixture.promotion.dates.end = '2027-12-31T23:59:59Z';
    fixture.promotion.countries = ['DE'];
  });
  expect(classifyChange(DEFAULT_FIXTURE, after)).toEqual({
    kind: 'content',
    fields: ['promotion.dates', 'promotion.copy', 'promotion.countries', 'promotion.prizes', 'promotion.terms'],
  });
});

test('keys, packs, collectors, seed and the promotion brand need a reset', () => {
  const after = edited((fixture) => {
    fixture.seed = 'another-seed';
    fixture.agency_keys = ['sandbox'];
    fixture.brands[0]!.skus[0]!.batches[0]!.packs = 10;
    fixture.collectors.pop();
    fixture.promotion.brand = 'nordkakao';
  });
  expect(classifyChange(DEFAULT_FIXTURE, after)).toEqual({
    kind: 'reset',
    fields: ['seed', 'brands', 'collectors', 'agency_keys', 'promotion.brand'],
  });
});

test('an optional field added or removed counts as a change', () => {
  const withHistory = { ...structuredClone(DEFAULT_FIXTURE), history: { scans: 10 } };
  const { history: _, ...withoutHistory } = withHistory;
  expect(classifyChange(withHistory, withoutHistory)).toEqual({ kind: 'reset', fields: ['history'] });
  expect(classifyChange(withoutHistory, withHistory)).toEqual({ kind: 'reset', fields: ['history'] });
});

test('a different number of prizes needs a reset, and nothing of the same edit applies', () => {
  const after = edited((fixture) => {
    fixture.promotion.copy.headline = 'New headline';
    fixture.promotion.prizes.pop();
  });
  expect(classifyChange(DEFAULT_FIXTURE, after)).toEqual({ kind: 'reset', fields: ['promotion.prizes (how many)'] });
});

let watcher: FixtureWatcher | undefined;
let folder: string | undefined;
afterEach(async () => {
  await watcher?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
  watcher = folder = undefined;
});

async function watchedWorld() {
  folder = mkdtempSync(join(tmpdir(), 'emulator-watch-'));
  const path = join(folder, 'fixture.json');
  writeFileSync(path, JSON.stringify(DEFAULT_FIXTURE));
  // A copy of the default fixture: the watcher edits world.fixture in place.
  const t = testWorld({ fixture: (fixture) => fixture });
  watcher = await watchFixture(path, t.world);
  const write = (fixture: Fixture) => writeFileSync(path, JSON.stringify(fixture));
  const headline = async () => (await t.experience('get', '/campaign')).body.campaign.copy.headline as string;
  const logged = (text: string) => expect.poll(() => t.logLines.join(''), { timeout: 5000 }).toContain(text);
  return { t, path, write, headline, logged };
}

test('a watched copy edit applies live and a later reset keeps it', async () => {
  const { t, write, headline } = await watchedWorld();
  write(edited((fixture) => { fixture.promotion.copy.headline = 'Live headline'; }));
  await expect.poll(headline, { timeout: 5000 }).toBe('Live headline');

  resetWorld(t.world.db, t.world.fixture, t.world.seed, t.world.clock.now());
  expect(await headline()).toBe('Live headline');
});

test('a watched edit that needs a reset is reported, not applied, and applied by reset', async () => {
  const { t, write, headline, logged } = await watchedWorld();
  const before = t.env.sandbox_key;
  write(edited((fixture) => {
    fixture.agency_keys = ['production'];
    fixture.promotion.copy.headline = 'Not yet';
  }));
  await logged('need a reset; run `npx emulator reset`');
  expect(await headline()).toBe(DEFAULT_FIXTURE.promotion.copy.headline);
  expect((await t.experience('get', '/campaign', before)).status).toBe(200);

  resetWorld(t.world.db, t.world.fixture, t.world.seed, t.world.clock.now());
  const env = envValues(t.world);
  expect(env.sandbox_key).toBeNull();
  expect((await t.experience('get', '/campaign', before)).status).toBe(401);
  expect((await t.experience('get', '/campaign', env.production_key)).body.campaign.copy.headline).toBe('Not yet');
});

test('after a reset, the next edit is compared with the fixture the reset applied', async () => {
  const { t, write, logged } = await watchedWorld();
  const fewerCollectors = edited((fixture) => { fixture.collectors.pop(); });
  write(fewerCollectors);
  await logged('collectors need a reset');
  resetWorld(t.world.db, t.world.fixture, t.world.seed, t.world.clock.now());

  write({ ...fewerCollectors, promotion: { ...fewerCollectors.promotion, name: 'Renamed' } });
  await logged('applied live: promotion.name');
});

test('an invalid edit is logged with its problem and the previous version keeps serving', async () => {
  const { path, write, headline, logged } = await watchedWorld();
  writeFileSync(path, '{ "seed": ');
  await logged(`invalid fixture ${path}: not JSON`);
  write(edited((fixture) => { fixture.promotion.copy.headline = ''; fixture.promotion.budget = -1; }));
  await logged(`invalid fixture ${path}: promotion.budget`);
  expect(await headline()).toBe(DEFAULT_FIXTURE.promotion.copy.headline);
});
