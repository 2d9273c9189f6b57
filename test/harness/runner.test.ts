/**
 * The order scenarios start in (issue 25): the longest watcher (the polling schedule, whose watch
 * is the run's longest wait) starts alone and the others once it watches, so that its watch begins
 * soonest; the other watchers start together, and the rest once every watcher watches. The lead
 * is marked so: the others' captures wait for its watch.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterEach, expect, test, vi } from 'vitest';
import { BUILT_IN_SCENARIOS, loadScenarios } from '../../harness/scenarios/load.js';
import { CHECK_IDS } from '../../harness/checks/registry.js';
import { ConfigSchema } from '../../harness/config.js';
import type { EmulatorClient } from '../../harness/emulator-client/client.js';
import type { PackPool } from '../../harness/emulator-client/packs.js';
import { Capturer } from '../../harness/run/capture.js';
import { RunFacts } from '../../harness/run/facts.js';
import { estimateSeconds, runScenarios } from '../../harness/run/runner.js';
import { STEPS } from '../../harness/run/steps.js';
import { ScenarioSchema } from '../../harness/scenarios/schema.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const waitsFor = (id: string, ...seconds: number[]) =>
  ScenarioSchema.parse({ id, title: id, world: { journeys: {} }, steps: seconds.map((each) => ({ do: 'wait', seconds: each })), feeds: ['state.format'] });

test('the lead watcher starts alone; the other watchers once it watches, the rest once every watcher watches', async ({ onTestFinished }) => {
  const outDir = mkdtempSync(join(tmpdir(), 'harness-runner-'));
  folders.push(outDir);
  const config = ConfigSchema.parse({ trace: 'off' });
  const facts = new RunFacts(config, { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, outDir);
  const env = {
    browser: {} as Browser, facts, client: {} as EmulatorClient, config, packs: {} as PackPool,
    capturer: new Capturer(facts, { axe: false, screenshots: false }), baseline: { calls: 0, session: 0 },
  };
  // Each wait lasts until the test ends it: what started when is read from the order of events, not from a clock.
  const log: string[] = [];
  const waits = new Map<string, () => void>();
  const waiting = vi.spyOn(STEPS, 'wait').mockImplementation((run, step) => {
    log.push(`${run.scenario.id} waits ${step.seconds} s`);
    return new Promise((resolve) => waits.set(`${run.scenario.id} ${step.seconds}`, resolve));
  });
  onTestFinished(() => waiting.mockRestore());
  const end = async (wait: string) => {
    await vi.waitFor(() => expect(waits.has(wait)).toBe(true));
    waits.get(wait)!();
  };
  // Each watches (a wait of 5 s or more) after a first short wait.
  const scenarios = [waitsFor('other', 0.1), waitsFor('watcher', 0.2, 5), waitsFor('lead', 0.4, 5.1)];
  const leadUntil = vi.spyOn(env.capturer, 'leadUntil');
  const ran = runScenarios(scenarios, env, 3, { onScenarioBegin: (scenario) => log.push(`${scenario.id} begins`) });

  await end('lead 0.4');
  await end('watcher 0.2');
  await vi.waitFor(() => expect(waits.has('other 0.1')).toBe(true));
  expect(log).toEqual([
    'lead begins', 'lead waits 0.4 s', 'lead waits 5.1 s',
    'watcher begins', 'watcher waits 0.2 s', 'watcher waits 5 s',
    'other begins', 'other waits 0.1 s',
  ]);
  for (const wait of ['other 0.1', 'watcher 5', 'lead 5.1']) await end(wait);
  const runs = await ran;
  // The lead's captures go first: the others' wait for its watch (capture.browser.test.ts).
  expect(Object.fromEntries([...runs].map(([id, run]) => [id, run.leads]))).toEqual({ lead: true, watcher: false, other: false });
  expect(leadUntil).toHaveBeenCalledTimes(1);
});

test('the built-in lead is the polling schedule: its watch lasts until its third poll, 17 s after the entry, longer than the stops watches (the first poll and 9 quiet seconds)', () => {
  const scenarios = loadScenarios([BUILT_IN_SCENARIOS], CHECK_IDS).scenarios.sort((a, b) => estimateSeconds(b) - estimateSeconds(a));
  expect(scenarios[0]!.id).toBe('polling-schedule');
});
