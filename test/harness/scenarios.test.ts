/** Scenario files are data, validated when loaded: a mistake names its file and field. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { CHECK_IDS } from '../../harness/checks/registry.js';
import { HarnessError } from '../../harness/errors.js';
import { BUILT_IN_SCENARIOS, loadScenarios } from '../../harness/scenarios/load.js';
import { estimateSeconds, isWatcher } from '../../harness/run/runner.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folderWith(files: Record<string, unknown>): string {
  const folder = mkdtempSync(join(tmpdir(), 'harness-scenarios-'));
  folders.push(folder);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), typeof content === 'string' ? content : JSON.stringify(content));
  return folder;
}

const valid = { id: 'mine', title: 'My scenario', world: { journeys: { main: { pack: 'lost', country: 'DE' } } }, steps: [{ do: 'scan' }], feeds: ['state.format'] };

test('the built-in scenarios load, one file each, with defaults filled in', () => {
  const { scenarios, notes } = loadScenarios([BUILT_IN_SCENARIOS], CHECK_IDS);
  expect([scenarios.length, notes]).toEqual([19, []]);
  const won = scenarios.find((scenario) => scenario.id === 'production-won')!;
  expect(won.steps[0]).toEqual({ do: 'scan', journey: 'main', supply_state: false });
  expect(won.phase).toBe('production');
  expect(scenarios.filter((scenario) => scenario.phase === 'sandbox').map((scenario) => scenario.id)).toEqual(['sandbox-previews']);
});

test('a user folder adds scenarios after the built-in ones', () => {
  const { scenarios } = loadScenarios([BUILT_IN_SCENARIOS, folderWith({ 'mine.json': valid })], CHECK_IDS);
  expect(scenarios.at(-1)!.id).toBe('mine');
});

test("a user's scenario with a built-in one's id replaces it, in its place; the run's notes say so", () => {
  const builtIn = loadScenarios([BUILT_IN_SCENARIOS], CHECK_IDS).scenarios.map((scenario) => scenario.id);
  const folder = folderWith({ 'rate.json': { ...valid, id: 'entry-rate-limited', title: 'Our wait page' } });
  const { scenarios, notes } = loadScenarios([BUILT_IN_SCENARIOS, folder], CHECK_IDS);
  expect(scenarios.map((scenario) => scenario.id)).toEqual(builtIn);
  expect(scenarios.find((scenario) => scenario.id === 'entry-rate-limited')!.title).toBe('Our wait page');
  expect(notes).toEqual([`scenario entry-rate-limited is replaced by ${join(folder, 'rate.json')}`]);
});

test('the config disables scenarios by id, built-in or not; an id no scenario has is refused', () => {
  const { scenarios, notes } = loadScenarios([BUILT_IN_SCENARIOS], CHECK_IDS, ['entry-invalid-session']);
  expect(scenarios.map((scenario) => scenario.id)).not.toContain('entry-invalid-session');
  expect(notes).toEqual(['scenario entry-invalid-session is disabled by the config']);
  expect(() => loadScenarios([BUILT_IN_SCENARIOS], CHECK_IDS, ['entry-nope'])).toThrow(/"disable_scenarios" of the config names entry-nope, which no scenario has/);
});

test.each([
  ['an unknown step', { ...valid, steps: [{ do: 'dance' }] }, /mine\.json: steps\.0\.do: /],
  ['a journey not in the world', { ...valid, steps: [{ do: 'scan', journey: 'other' }] }, /mine\.json: steps\.0\.journey: journey "other" is not declared/],
  ['a clock move in a shared scenario', { ...valid, steps: [{ do: 'clock', advance: '31m' }] }, /mine\.json: steps\.0: a clock move changes every journey: set "exclusive": true/],
  ['a wait for a Retry-After nobody armed', { ...valid, steps: [{ do: 'scan' }, { do: 'wait_retry_after' }] }, /mine\.json: steps\.1: wait_retry_after needs an earlier "fault" step/],
  ['an unknown check', { ...valid, feeds: ['state.nope'] }, /mine\.json: feeds names unknown check "state\.nope"/],
  ['a country that is not a code', { ...valid, world: { journeys: { main: { country: 'Germany' } } } }, /mine\.json: world\.journeys\.main\.country: a two-letter country code/],
  ['a field the format does not know', { ...valid, colour: 'blue' }, /mine\.json: \(file\): Unrecognized key/],
  ['an expectation of both a page and a state', { ...valid, steps: [{ do: 'expect', shows: 'consent_form', state: 'won' }] }, /mine\.json: steps\.0: give either "shows" \(landing, consent_form, error\) or "state"/],
  ['a state §4.2 does not have', { ...valid, steps: [{ do: 'expect', state: 'gewonnen' }] }, /mine\.json: steps\.0\.state: /],
])('%s is refused with its file and field', (_name, content, message) => {
  expect(() => loadScenarios([folderWith({ 'mine.json': content })], CHECK_IDS)).toThrow(message);
});

test('invalid JSON and duplicate ids within the same source are refused too', () => {
  expect(() => loadScenarios([folderWith({ 'broken.json': '{"id": ' })], CHECK_IDS)).toThrow(/broken\.json: not valid JSON/);
  expect(() => loadScenarios([BUILT_IN_SCENARIOS, folderWith({ 'a.json': valid, 'b.json': valid })], CHECK_IDS)).toThrow(/b\.json: the scenario id "mine" is already used by .*a\.json/);
  expect(() => loadScenarios([BUILT_IN_SCENARIOS, folderWith({ 'a.json': valid }), folderWith({ 'b.json': valid })], CHECK_IDS)).toThrow(/b\.json: the scenario id "mine" is already used by .*a\.json/);
  expect(() => loadScenarios(['/nonexistent/folder'], CHECK_IDS)).toThrow(HarnessError);
});

test('the runner starts the longest scenarios first: the polling watches', () => {
  const scenarios = loadScenarios([BUILT_IN_SCENARIOS], CHECK_IDS).scenarios.sort((a, b) => estimateSeconds(b) - estimateSeconds(a));
  expect(scenarios.slice(0, 4).map((scenario) => scenario.id).sort()).toEqual(['polling-schedule', 'polling-stops-delivered', 'polling-stops-expired', 'polling-stops-failed']);
});

test('the watchers, which get the machine first until they watch, are the scenarios that wait five seconds or more', () => {
  const scenarios = loadScenarios([BUILT_IN_SCENARIOS], CHECK_IDS).scenarios;
  expect(scenarios.filter(isWatcher).map((scenario) => scenario.id).sort()).toEqual(['entry-rate-limited', 'polling-schedule', 'polling-stops-delivered', 'polling-stops-expired', 'polling-stops-failed']);
  const waitsBriefly = scenarios.find((scenario) => scenario.id === 'exchange-interrupted')!;
  expect(waitsBriefly.steps.some((step) => step.do === 'wait')).toBe(true);
  expect(isWatcher(waitsBriefly)).toBe(false);
});
